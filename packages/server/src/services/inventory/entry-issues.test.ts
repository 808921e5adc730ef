import { describe, expect, it } from 'vitest';
import { Dec } from '../../domain/decimal.js';
import { entryIssues } from './entry-issues.js';

const entry = (variantId: string, value: number | Dec, path = '/levels/0') => ({
  variantId,
  value,
  unit: 'kg',
  path,
  field: 'quantity' as const,
});

describe('entryIssues', () => {
  it.each([
    ['set', -3, [{ path: '/levels/0/quantity/value', message: 'must be >= 0' }]],
    ['set', new Dec(-0.001), [{ path: '/levels/0/quantity/value', message: 'must be >= 0' }]],
    ['set', Infinity, [{ path: '/levels/0/quantity/value', message: 'must be a finite number' }]],
    ['adjustment', -Infinity, [{ path: '/levels/0/quantity/value', message: 'must be a finite number' }]],
    ['set', 0, []],
    ['adjustment', -3, []],
  ] as const)('when a %s is %s, then the issues are %j', (operation, value, issues) => {
    expect(entryIssues(operation, [entry('2001', value)])).toEqual(issues);
  });

  it('when a variant appears twice, then the second names the first, and every problem is listed', () => {
    expect(entryIssues('set', [entry('2001', 1), entry('2001', -1, '/levels/1')])).toEqual([
      { path: '/levels/1/quantity/value', message: 'must be >= 0' },
      { path: '/levels/1/variantId', message: "variant '2001' already appears at /levels/0" },
    ]);
  });

  it('when an entry has no field (a form or Tare itself), then its issue is at its path', () => {
    expect(entryIssues('set', [{ variantId: '2001', value: -1, path: '' }])).toEqual([
      { path: '', message: 'must be >= 0' },
    ]);
  });
});
