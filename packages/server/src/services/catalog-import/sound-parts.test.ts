import { describe, expect, it } from 'vitest';
import { soundParts } from './sound-parts.js';

describe('soundParts', () => {
  const sound = soundParts([
    { path: '/shops/0/products/1/variants/0/price', message: 'must be string' },
    { path: '/shops/0/locations', message: 'must be array' },
  ]);

  it.each([
    ['/shops/0/products/1/variants/0/price', false, false],
    ['/shops/0/products/1/variants/0', true, false],
    ['/shops/0', true, false],
    ['/shops/0/products/1/variants/0/unitMeasurement/unit', true, true],
    ['/shops/0/products/0', true, true],
    ['/shops/0/locations', false, false],
    ['/shops/0/locations/0/id', false, false],
    ['/shops/0/locationsExtra', true, true],
  ])('when %s is asked, then readable is %s and clean is %s', (path, readable, clean) => {
    expect([sound.readable(path), sound.clean(path)]).toEqual([readable, clean]);
  });

  it('when the document itself is at fault, then no part is readable', () => {
    const root = soundParts([{ path: '/', message: 'must be object' }]);
    expect([root.readable('/shops'), root.clean('/shops/0')]).toEqual([false, false]);
  });

  it('when there is no issue, then every part is clean', () => {
    expect(soundParts([]).clean('/shops/0/products/0')).toBe(true);
  });
});
