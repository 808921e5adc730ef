/** Exponential backoff with full jitter (base 250 ms, cap 8 s), as in stripe-node and the AWS builders' library. */
export const BACKOFF_BASE_MS = 250;
export const BACKOFF_CAP_MS = 8000;

/** Delay before retry number `attempt` (0 for the first retry): uniform in [0, min(cap, base·2^attempt)). */
export function backoffDelay(attempt: number, random: () => number): number {
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
}

/** 409 (key in use), 429 and 5xx are transient; every other 4xx will fail again the same way. */
export function isRetryableStatus(status: number): boolean {
  return status === 409 || status === 429 || status >= 500;
}

/** `Retry-After` in seconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

export function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
