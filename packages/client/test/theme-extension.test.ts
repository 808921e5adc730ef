import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { METAFIELD_NAMESPACE, SHOP_METAFIELD_KEY, VARIANT_METAFIELD_KEY } from '@tare/contracts';
import { describe, expect, it } from 'vitest';
import { PICKER_TAG, PICKER_TEXTS } from '../src/picker/index.js';

// The theme app extension (PRODUCT.md §18) as Shopify's CLI deploys it: its block reads the
// metafields Tare writes, loads assets that exist, and names only translations it ships.
const EXTENSION = fileURLToPath(new URL('../../../extensions/tare-measure-picker/', import.meta.url));
const read = (path: string) => readFileSync(`${EXTENSION}${path}`, 'utf8');
const block = read('blocks/measure-picker.liquid');
const schema = JSON.parse(/{% schema %}([\s\S]*){% endschema %}/.exec(block)![1]!);

/** `a.b.c` in a locale file, or undefined. */
function lookup(file: string, key: string): unknown {
  return key.split('.').reduce<any>((node, part) => node?.[part], JSON.parse(read(`locales/${file}`)));
}

describe('the measure picker theme app extension', () => {
  it('when Shopify reads the extension, then it is a theme extension whose block targets product sections and loads its built assets', () => {
    expect(read('shopify.extension.toml')).toMatch(/^type = "theme"$/m);
    expect(schema).toMatchObject({ target: 'section', enabled_on: { templates: ['product'] } });
    expect(existsSync(`${EXTENSION}assets/${schema.javascript}`)).toBe(true);
    expect(existsSync(`${EXTENSION}assets/${schema.stylesheet}`)).toBe(true);
  });

  it('when the block renders, then it reads the metafields Tare writes into the element the script defines', () => {
    expect(block).toContain(`variant.metafields['${METAFIELD_NAMESPACE}'].${VARIANT_METAFIELD_KEY}.value`);
    expect(block).toContain(`shop.metafields['${METAFIELD_NAMESPACE}'].${SHOP_METAFIELD_KEY}.value`);
    expect(block).toContain(`<${PICKER_TAG}`);
    expect(block).toMatch(/data-tare-variants/);
    expect(block).toMatch(/data-tare-shop/);
    for (const text of Object.keys(PICKER_TEXTS)) expect(block).toMatch(new RegExp(`text-${text}="`));
  });

  it('when the block names a translation, then the English default and the French file both have it', () => {
    const storefront = [...block.matchAll(/'([\w.]+)' \| t\b/g)].map((m) => m[1]!);
    const editor = [...JSON.stringify(schema).matchAll(/"t:([\w.]+)"/g)].map((m) => m[1]!);
    expect(storefront.length).toBeGreaterThan(0);
    for (const key of storefront) {
      expect(lookup('en.default.json', key), key).toEqual(expect.any(String));
      expect(lookup('fr.json', key), key).toEqual(expect.any(String));
    }
    for (const key of editor) {
      expect(lookup('en.default.schema.json', key), key).toEqual(expect.any(String));
      expect(lookup('fr.schema.json', key), key).toEqual(expect.any(String));
    }
    expect(lookup('en.default.json', 'measure_picker.add_to_cart')).toBe(PICKER_TEXTS.add);
  });
});
