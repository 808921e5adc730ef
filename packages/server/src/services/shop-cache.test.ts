import { describe, expect, it } from 'vitest';
import { createShopCache } from './shop-cache.js';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('shop cache', () => {
  it('when a value is cached, then it is served until its time limit and loaded again after', async () => {
    const time = clock();
    const cache = createShopCache<number>({ ttlMs: 1000, now: time.now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('s1', 'k', load)).toBe(1);
    time.advance(999);
    expect(await cache.get('s1', 'k', load)).toBe(1);
    time.advance(1);
    expect(await cache.get('s1', 'k', load)).toBe(2);
  });

  it('when concurrent misses ask for the same key, then they share one load', async () => {
    const cache = createShopCache<number>({ ttlMs: 1000 });
    let loads = 0;
    const load = () => new Promise<number>((resolve) => setTimeout(() => resolve(++loads), 10));
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.get('s1', 'k', load)));
    expect(answers).toEqual(Array(10).fill(1));
    expect(loads).toBe(1);
  });

  it('when a value is loaded, then read hands back the value itself; before, and once stale, a promise', async () => {
    const time = clock();
    const cache = createShopCache<number>({ ttlMs: 1000, now: time.now });
    let loads = 0;
    const load = async () => ++loads;
    const first = cache.read('s1', 'k', load);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe(1);
    expect(cache.read('s1', 'k', load)).toBe(1);
    time.advance(1000);
    const again = cache.read('s1', 'k', load);
    expect(again).toBeInstanceOf(Promise);
    expect(await again).toBe(2);
    cache.invalidate('s1');
    expect(await cache.read('s1', 'k', load)).toBe(3);
    expect(loads).toBe(3);
  });

  it('when a load fails, then the failure is not cached', async () => {
    const cache = createShopCache<number>({ ttlMs: 1000 });
    await expect(cache.get('s1', 'k', async () => Promise.reject(new Error('404')))).rejects.toThrow('404');
    expect(await cache.get('s1', 'k', async () => 7)).toBe(7);
  });

  it('when a shop is invalidated, then only that shop loads again', async () => {
    const cache = createShopCache<string>({ ttlMs: 60_000 });
    await cache.get('s1', 'k', async () => 'old-1');
    await cache.get('s2', 'k', async () => 'old-2');
    cache.invalidate('s1');
    expect(await cache.get('s1', 'k', async () => 'new-1')).toBe('new-1');
    expect(await cache.get('s2', 'k', async () => 'new-2')).toBe('old-2');
    expect(cache.peek('s2', 'k')).toBe('old-2');
  });

  it('when the time limit is zero, then nothing is cached', async () => {
    const cache = createShopCache<number>({ ttlMs: 0 });
    let loads = 0;
    await cache.get('s1', 'k', async () => ++loads);
    await cache.get('s1', 'k', async () => ++loads);
    expect(loads).toBe(2);
    expect(cache.peek('s1', 'k')).toBeUndefined();
  });
});
