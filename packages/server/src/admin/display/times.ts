/** An instant as a `<time>` element shows it (web/views/time.eta; local-times.js rewrites it in the browser's zone). */
export interface ShownTime {
  /** The exact instant, for `datetime`. */
  iso: string;
  /** The text without script: `2026-04-01 09:30 UTC` (with `:05` seconds when asked). */
  text: string;
  seconds: boolean;
}

const minuteOf = (value: Date) => value.toISOString().slice(0, 16);

/**
 * The minutes that more than one of `instants` fall in: a list shows those instants with their
 * seconds, so entries of the same minute can be told apart (and read in order).
 */
export function sharedMinutes(instants: readonly (Date | string)[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const instant of instants) {
    const minute = minuteOf(new Date(instant));
    if (seen.has(minute)) shared.add(minute);
    seen.add(minute);
  }
  return shared;
}

/** `value` for a `<time>` element; with seconds when its minute is in `shared`. */
export function shownTime(value: Date | string, shared?: Set<string>): ShownTime {
  const instant = new Date(value);
  const iso = instant.toISOString();
  const seconds = shared?.has(minuteOf(instant)) ?? false;
  return { iso, text: `${iso.slice(0, seconds ? 19 : 16).replace('T', ' ')} UTC`, seconds };
}

/**
 * The day a person chose for a key to expire: keys stop at the end of that UTC day, stored as
 * the next midnight (2027-07-01T00:00Z for 2027-06-30), so the day shown is the one before it.
 */
export function chosenExpiryDay(expiresAt: Date): string {
  return new Date(expiresAt.getTime() - 1).toISOString().slice(0, 10);
}
