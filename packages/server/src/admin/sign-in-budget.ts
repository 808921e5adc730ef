import type { FastifyReply, FastifyRequest } from 'fastify';
import { normalizeEmail } from '../services/admin-users.js';
import type { AdminContext } from './admin-app.js';

/** Password attempts per minute (token buckets: a burst of this many, then this many a minute). */
const PER_ACCOUNT = 5;
const PER_ADDRESS = 30;

/** Like the API's limiter, a rate-limit store that does not answer lets the attempt through (decision 9). */
async function take(ctx: AdminContext, request: FastifyRequest, key: string, perMinute: number) {
  try {
    return await ctx.signInBuckets.take(key, perMinute);
  } catch (err) {
    request.log.warn({ err }, 'sign-in rate limit unavailable; attempt let through');
    return { allowed: true, msToNextToken: 0 };
  }
}

/**
 * Spends one attempt at an account's password from its budget and the client address's: the
 * sign-in form and the password form (its current password) draw on the same buckets, so neither
 * is a way around the other. Spent before the password is hashed: guessing costs the guesser,
 * and a flood of attempts cannot make the server hash without end. Returns the seconds to wait
 * (with Retry-After set) when either budget is spent, undefined when the attempt may go on.
 */
export async function spendPasswordAttempt(
  ctx: AdminContext,
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
): Promise<number | undefined> {
  const denied = (
    await Promise.all([
      take(ctx, request, `admin-sign-in:ip:${request.ip}`, PER_ADDRESS),
      take(ctx, request, `admin-sign-in:account:${normalizeEmail(email)}`, PER_ACCOUNT),
    ])
  ).filter((bucket) => !bucket.allowed);
  if (!denied.length) return undefined;
  const seconds = Math.ceil(Math.max(...denied.map((bucket) => bucket.msToNextToken)) / 1000);
  reply.header('retry-after', String(seconds));
  return seconds;
}
