import { describe, expect, test } from 'vitest';
import { chooseTimeTicks, tickLabels } from '../../src/admin/web/assets/level-chart-ticks.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ticks: number[]) => ticks.map((tick) => new Date(tick).toISOString());

/** The level chart's time axis (a pure module the browser runs; issue 25). */
describe('level chart time ticks', () => {
  test('when entries are two minutes apart, then the ticks are 30 seconds apart and show seconds', () => {
    const { step, ticks } = chooseTimeTicks(at('2026-11-26T10:00:00Z'), at('2026-11-26T10:02:00Z'), 6);
    expect(step).toBe('30s');
    expect(tickLabels(ticks, step)).toEqual(['10:00:00\nNov 26', '10:00:30', '10:01:00', '10:01:30', '10:02:00']);
  });

  test('when the span is an hour, then the ticks fall on quarter hours', () => {
    const { step, ticks } = chooseTimeTicks(at('2026-11-26T09:52:00Z'), at('2026-11-26T10:53:00Z'), 6);
    expect(step).toBe('15m');
    expect(tickLabels(ticks, step)).toEqual(['10:00\nNov 26', '10:15', '10:30', '10:45']);
  });

  test('when the span is a day, then the ticks are 6 hours apart and the day is named where it changes', () => {
    const { step, ticks } = chooseTimeTicks(at('2026-03-01T00:00:00Z'), at('2026-03-02T00:00:00Z'), 6);
    expect(step).toBe('6h');
    expect(tickLabels(ticks, step)).toEqual(['00:00\nMar 1', '06:00', '12:00', '18:00', '00:00\nMar 2']);
  });

  test('when the browser is 2 hours ahead of UTC, then the ticks fall on its midnights and say its hours', () => {
    const { step, ticks } = chooseTimeTicks(at('2026-06-01T00:00:00Z'), at('2026-06-04T00:00:00Z'), 4, 120);
    expect(step).toBe('1d');
    expect(iso(ticks)).toEqual(['2026-06-01T22:00:00.000Z', '2026-06-02T22:00:00.000Z', '2026-06-03T22:00:00.000Z']);
    expect(tickLabels(ticks, step, 120)).toEqual(['Jun 2\n2026', 'Jun 3', 'Jun 4']);
  });

  test('when the span is five weeks, then the ticks are Mondays', () => {
    const { step, ticks } = chooseTimeTicks(at('2026-11-01T00:00:00Z'), at('2026-12-06T00:00:00Z'), 6);
    expect(step).toBe('1w');
    expect(ticks.map((tick) => new Date(tick).getUTCDay())).toEqual([1, 1, 1, 1, 1]);
    expect(tickLabels(ticks, step)).toEqual(['Nov 2\n2026', 'Nov 9', 'Nov 16', 'Nov 23', 'Nov 30']);
  });

  test('when the span is a year, then the ticks are quarters and the year is named where it changes', () => {
    const { step, ticks } = chooseTimeTicks(at('2026-01-15T00:00:00Z'), at('2027-01-15T00:00:00Z'), 6);
    expect(step).toBe('3mo');
    expect(iso(ticks)).toEqual([
      '2026-04-01T00:00:00.000Z',
      '2026-07-01T00:00:00.000Z',
      '2026-10-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
    expect(tickLabels(ticks, step)).toEqual(['Apr\n2026', 'Jul', 'Oct', 'Jan\n2027']);
  });

  test('when the span is years, then the ticks are years', () => {
    const { step, ticks } = chooseTimeTicks(at('2021-05-01T00:00:00Z'), at('2026-05-01T00:00:00Z'), 6);
    expect(step).toBe('1y');
    expect(tickLabels(ticks, step)).toEqual(['2022', '2023', '2024', '2025', '2026']);
  });

  test('for any span from a minute to two years and any width, then the ticks are in the span, in order, and no more than fit', () => {
    const from = at('2026-02-27T13:37:11Z');
    for (let span = 60_000; span < 2 * 366 * 86_400_000; span *= 1.7) {
      for (const maxTicks of [2, 3, 4.5, 7, 12]) {
        const { step, ticks } = chooseTimeTicks(from, from + span, maxTicks, 330);
        expect(ticks.length, `${span} ms at ${maxTicks}: ${step}`).toBeLessThanOrEqual(Math.floor(maxTicks));
        expect(ticks.every((tick) => tick >= from && tick <= from + span)).toBe(true);
        expect(ticks).toEqual([...ticks].sort((a, b) => a - b));
        expect(tickLabels(ticks, step, 330)).toHaveLength(ticks.length);
      }
    }
  });
});
