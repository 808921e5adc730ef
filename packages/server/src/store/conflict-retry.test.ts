import { describe, expect, it } from 'vitest';
import { retryConflicts } from './conflict-retry.js';

const withCode = (code: string) => Object.assign(new Error(code), { code });
const noPause = () => 0;

describe('retryConflicts', () => {
  it('when a transaction is aborted by a deadlock, then it runs again until it commits', async () => {
    let runs = 0;
    const result = await retryConflicts(async () => {
      runs++;
      if (runs < 3) throw withCode(runs === 1 ? '40P01' : '40001');
      return 'committed';
    }, noPause);
    expect({ result, runs }).toEqual({ result: 'committed', runs: 3 });
  });

  it('when every attempt is aborted, then the fifth abort is thrown', async () => {
    let runs = 0;
    const run = retryConflicts(async () => {
      runs++;
      throw withCode('40P01');
    }, noPause);
    await expect(run).rejects.toMatchObject({ code: '40P01' });
    expect(runs).toBe(5);
  });

  it('when a transaction fails otherwise, then the error is thrown at once', async () => {
    let runs = 0;
    const run = retryConflicts(async () => {
      runs++;
      throw withCode('23505');
    }, noPause);
    await expect(run).rejects.toMatchObject({ code: '23505' });
    expect(runs).toBe(1);
  });
});
