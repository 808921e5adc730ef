import type { Actor } from '../domain/actor.js';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StaffSession } from '../services/admin-sessions.js';
import { PAGE_CONTENT_SECURITY_POLICY } from '../http/page-security.js';
import { describeCause, OPERATION_NAMES } from './display/ledger-words.js';
import { shownQuantity } from './display/quantities.js';
import { chosenExpiryDay, sharedMinutes, shownTime } from './display/times.js';

/**
 * Templates and assets live in web/ beside this module; the bundle copies that folder beside
 * itself (scripts/bundle.mjs), so the same relative URL holds in src/ and in dist/.
 */
export const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));
/** uPlot's browser build, served from node_modules by Tare itself (no CDN). */
export const UPLOT_DIR = dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));

// `<%= %>` escapes (& < > " '), so text from the store (key names, labels) is shown, never run;
// templates use `<%~ %>` only for markup they built themselves.
const eta = new Eta({ views: `${WEB_DIR}views`, autoEscape: true, cache: true });

export interface PageData {
  title: string;
  /** The signed-in staff member; the sign-in page has none. */
  staff?: StaffSession;
  /** The CSRF token every form of the page carries. */
  csrfToken: string;
  /** Which navigation entry is the current page. */
  current?: string;
  /** The page's own scripts in web/assets (progressive enhancement; the CSP allows no inline script). */
  scripts?: string[];
  [field: string]: unknown;
}

/** Renders `view` inside the layout as a full HTML answer with the admin's security headers. */
export function sendPage(reply: FastifyReply, status: number, view: string, data: PageData): FastifyReply {
  const html = eta.render(view, { ...data, requestId: reply.request.id, format });
  return (
    reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CONTENT_SECURITY_POLICY)
      .header('x-frame-options', 'DENY')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      // Pages can carry a secret shown once (a new key): never stored by a cache or the back button.
      .header('cache-control', 'no-store')
      .send(html)
  );
}

/** Whether the browser reached Tare over HTTPS, directly or through a proxy that says so. */
export function isHttps(request: FastifyRequest): boolean {
  // Without trustProxy, request.protocol is the socket's. X-Forwarded-Proto is honoured here
  // even so: a client that forges it only makes its own cookies Secure (unusable over http).
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return request.protocol === 'https' || first === 'https';
}

/** Who made a change, in words: the staff member's email, the API key, the import or the platform. */
export function describeActor(actor: Actor | null | undefined): string {
  switch (actor?.type) {
    case 'staff':
      // Edits made in the admin before actors were kept name no one.
      return actor.email || 'Staff (admin)';
    case 'api_key':
      return actor.name ? `API key “${actor.name}”` : `API key ${actor.id}`;
    case 'import':
      return 'Import';
    case 'platform':
      return 'Platform';
    default:
      return '—';
  }
}

/**
 * What views show numbers, times and ledger words with (display/): quantities rounded for
 * reading with the exact value kept (quantity.eta), instants in the browser's zone (time.eta,
 * local-times.js), operations and causes in words.
 */
const format = {
  /** `2026-04-01 09:30 UTC`, for instants not shown in a `<time>` element. */
  date(value: Date | null | undefined): string {
    if (!value) return '—';
    return `${value.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  },
  time: shownTime,
  sharedMinutes,
  expiryDay: chosenExpiryDay,
  quantity: shownQuantity,
  operation: (operation: keyof typeof OPERATION_NAMES) => OPERATION_NAMES[operation] ?? operation,
  cause: describeCause,
  actor: describeActor,
};
