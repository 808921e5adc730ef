import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { Dec } from './decimal.js';
import { parseIdempotencyKey, requestFingerprint } from './idempotency-key.js';
import { planLevel } from './inventory.js';

describe('planLevel', () => {
  it.each([
    ['adjustment', '12.75', '-0.75', '1', '12', '-0.75', '12'],
    ['adjustment', '0', '-0.25', '1', '-0.25', '-0.25', '-1'],
    ['adjustment', '5', '0', '1', '5', '0', '5'],
    ['set', '12.75', '1250', '100', '1250', '1237.25', '12'],
    ['set', '3', '0', '0.5', '0', '-3', '0'],
  ] as const)(
    'when %s of %s by %s (unit %s), then total %s, delta %s, platform %s',
    (op, before, value, unit, after, delta, platform) => {
      const plan = planLevel(op, new Dec(before), new Dec(value), new Dec(unit));
      expect([plan.after.toFixed(), plan.delta.toFixed(), plan.platformInteger.toFixed()]).toEqual([
        after,
        delta,
        platform,
      ]);
    },
  );
});

describe('idempotency keys', () => {
  it.each([
    ['abc', 'abc'],
    ['"abc"', 'abc'],
    ['a b~!', 'a b~!'],
    ['x'.repeat(255), 'x'.repeat(255)],
  ])('when the header is %j, then the key is %j', (header, key) => {
    expect(parseIdempotencyKey(header)).toBe(key);
  });

  it.each([undefined, '', '""', 'x'.repeat(256), 'caf\u00e9', 'tab\there', 'new\nline'])(
    'when the header is %j, then there is no key',
    (header) => {
      expect(parseIdempotencyKey(header)).toBeUndefined();
    },
  );

  it('when two bodies differ only in key order, then their fingerprints are equal', () => {
    const a = requestFingerprint('POST', '/r', {
      locationId: '1',
      adjustments: [{ variantId: '2', delta: { value: 1, unit: 'kg' } }],
    });
    const b = requestFingerprint('post', '/r', {
      adjustments: [{ delta: { unit: 'kg', value: 1 }, variantId: '2' }],
      locationId: '1',
    });
    expect(a.equals(b)).toBe(true);
  });

  it('when method, route or body differ, then the fingerprints differ', () => {
    const base = requestFingerprint('POST', '/r', { a: 1 });
    expect(base.equals(requestFingerprint('PUT', '/r', { a: 1 }))).toBe(false);
    expect(base.equals(requestFingerprint('POST', '/s', { a: 1 }))).toBe(false);
    expect(base.equals(requestFingerprint('POST', '/r', { a: 2 }))).toBe(false);
  });

  it('when objects are nested in arrays, then keys are sorted at every depth', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });
});
