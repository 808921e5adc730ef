// Where the level chart's time axis puts its ticks and what it writes under them: steps from
// seconds to years, chosen so that at most `maxTicks` fit, aligned to whole minutes, hours,
// days, Mondays, months and years of the browser's zone (its offset at the end of the span).
// A pure module: level-chart.js uses it in the browser, level-chart-ticks.test.ts in Node.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** The steps tried, smallest first; months and years are calendar steps (`months`), the others fixed. */
export const TICK_STEPS = [
  { name: '10s', ms: 10 * SECOND },
  { name: '30s', ms: 30 * SECOND },
  { name: '1m', ms: MINUTE },
  { name: '5m', ms: 5 * MINUTE },
  { name: '15m', ms: 15 * MINUTE },
  { name: '30m', ms: 30 * MINUTE },
  { name: '1h', ms: HOUR },
  { name: '3h', ms: 3 * HOUR },
  { name: '6h', ms: 6 * HOUR },
  { name: '12h', ms: 12 * HOUR },
  { name: '1d', ms: DAY },
  { name: '2d', ms: 2 * DAY },
  { name: '1w', ms: WEEK },
  { name: '1mo', months: 1 },
  { name: '3mo', months: 3 },
  { name: '6mo', months: 6 },
  { name: '1y', months: 12 },
  { name: '2y', months: 24 },
  { name: '5y', months: 60 },
  { name: '10y', months: 120 },
];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
// 1970-01-01 was a Thursday: Mondays are 4 days after a multiple of 7 days from it.
const MONDAY = 4 * DAY;

/** The instants of `step` from `from` to `to` (ms), in a zone `offset` ms ahead of UTC. */
function ticksOf(step, from, to, offset) {
  const ticks = [];
  if (step.months) {
    const start = new Date(from + offset);
    // Months counted from year 0, so 3-month steps fall on Jan, Apr, … and 5-year steps on 2025, 2030, …
    let month = start.getUTCFullYear() * 12 + start.getUTCMonth();
    if (Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1) < from + offset) month += 1;
    while (month % step.months !== 0) month += 1;
    for (; ; month += step.months) {
      const at = Date.UTC(Math.floor(month / 12), month % 12, 1) - offset;
      if (at > to) break;
      ticks.push(at);
    }
    return ticks;
  }
  const phase = step.ms === WEEK ? MONDAY : 0;
  const first = Math.ceil((from + offset - phase) / step.ms) * step.ms + phase - offset;
  for (let at = first; at <= to; at += step.ms) ticks.push(at);
  return ticks;
}

/**
 * The ticks for a span of `from`–`to` (ms since the epoch): the smallest step that gives at most
 * `maxTicks` (at least 2), in a zone `offsetMinutes` ahead of UTC (`-new Date().getTimezoneOffset()`).
 * @returns the step's name and the ticks' instants (ms).
 */
export function chooseTimeTicks(from, to, maxTicks, offsetMinutes = 0) {
  const offset = offsetMinutes * MINUTE;
  const most = Math.max(2, Math.floor(maxTicks));
  for (const step of TICK_STEPS) {
    // A fixed step's count is known without listing it (a year in 10 s steps is 3 million).
    if (step.ms && (to - from) / step.ms > most + 1) continue;
    const ticks = ticksOf(step, from, to, offset);
    if (ticks.length <= most) return { step: step.name, ticks };
  }
  const last = TICK_STEPS[TICK_STEPS.length - 1];
  return { step: last.name, ticks: ticksOf(last, from, to, offset) };
}

const pad = (n) => String(n).padStart(2, '0');

/**
 * What is written under each tick: the time for steps under a day (`09:15`, with seconds under a
 * minute), the day for days and weeks (`Mar 2`), the month for months (`Mar`); the larger part
 * (the day, the year) is added on a second line under the first tick and wherever it changes.
 */
export function tickLabels(ticks, stepName, offsetMinutes = 0) {
  const step = TICK_STEPS.find((candidate) => candidate.name === stepName);
  const offset = offsetMinutes * MINUTE;
  let previous = null;
  return ticks.map((tick) => {
    const at = new Date(tick + offset);
    const day = `${MONTHS[at.getUTCMonth()]} ${at.getUTCDate()}`;
    const year = String(at.getUTCFullYear());
    let label;
    let context;
    if (step.months) {
      label = step.months >= 12 ? year : MONTHS[at.getUTCMonth()];
      context = step.months >= 12 ? '' : year;
    } else if (step.ms >= DAY) {
      label = day;
      context = year;
    } else {
      label = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}${step.ms < MINUTE ? `:${pad(at.getUTCSeconds())}` : ''}`;
      context = day;
    }
    const shown = context && context !== previous ? `${label}\n${context}` : label;
    previous = context;
    return shown;
  });
}
