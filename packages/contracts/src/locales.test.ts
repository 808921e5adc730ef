import { describe, expect, it } from 'vitest';
import { localeChain, normalizeLocale } from './locales.js';

describe('normalizeLocale', () => {
  it.each([
    ['fr_ca', 'fr-CA'],
    ['FR-ca', 'fr-CA'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    [' de ', 'de'],
  ])('when given %j, then it returns %j', (raw, expected) => {
    expect(normalizeLocale(raw)).toBe(expected);
  });

  it.each([undefined, '', '   ', 'not a locale!', '12', 'x'.repeat(36), 'en-'.repeat(12)])(
    'when given %j, then it returns undefined without throwing',
    (raw) => {
      expect(normalizeLocale(raw)).toBeUndefined();
    },
  );
});

describe('localeChain', () => {
  it.each([
    ['fr-CA', 'en', ['fr-CA', 'fr', 'en']],
    ['fr', 'en', ['fr', 'en']],
    ['xx', 'en', ['xx', 'en']],
    [undefined, 'en', ['en']],
    [undefined, 'de', ['de', 'en']],
    ['fr-CA', 'de-AT', ['fr-CA', 'fr', 'de-AT', 'de', 'en']],
    ['zh-Hant-TW', 'en', ['zh-Hant-TW', 'zh-Hant', 'zh', 'en']],
    ['en-US-u-ca-gregory', 'en', ['en-US-u-ca-gregory', 'en-US', 'en']],
    ['%%%', 'garbage!', ['en']],
  ])('when %j is requested and the shop default is %j, then the chain is %j', (requested, shopDefault, chain) => {
    expect(localeChain(requested, shopDefault)).toEqual(chain);
  });
});
