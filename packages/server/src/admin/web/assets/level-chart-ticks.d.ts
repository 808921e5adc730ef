// Types of level-chart-ticks.js (a browser module without a build step) for its Node tests.
export interface TickStep {
  name: string;
  ms?: number;
  months?: number;
}
export const TICK_STEPS: readonly TickStep[];
export function chooseTimeTicks(
  from: number,
  to: number,
  maxTicks: number,
  offsetMinutes?: number,
): { step: string; ticks: number[] };
export function tickLabels(ticks: readonly number[], stepName: string, offsetMinutes?: number): string[];
