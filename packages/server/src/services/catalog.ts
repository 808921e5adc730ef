import {
  type DimensionSetting,
  type MeasurementType,
  type PaginationMeta,
  type Product,
  type UnitPrice,
  type UnitPricingSettings,
  unitPrice,
  unitPriceReference,
  type Variant,
} from '@tare/contracts';
import type { CursorCodec } from '../domain/cursor.js';
import { errors } from '../errors.js';
import type { Db } from '../store/db.js';
import {
  findProduct,
  findVariant,
  listVariantsPage,
  type VariantPreset,
  type VariantRecord,
  type VariantRules,
} from '../store/repositories/catalog.js';
import { type Answer, answer } from './answer.js';
import { createShopCache } from './shop-cache.js';
import type { ShopDirectory } from './shop-directory.js';

export type ProductPage = Answer<{ product: Product }, PaginationMeta>;
export type VariantAnswer = Answer<{ variant: Variant & { product: { id: string; measurementType: string } } }, object>;

/**
 * The API shape of a variant: rules for `number`, presets for `pills` and `dropdown`; with the
 * shop's unit pricing (PRODUCT.md §21), the unit price of its price and of each preset's own.
 */
export function toApiVariant(
  record: VariantRecord,
  pricing?: { currency: string; settings?: UnitPricingSettings; type: MeasurementType },
): Variant {
  const reference = pricing && unitPriceReference(pricing.settings, pricing.type);
  const priced = (price: string, value: number | string): { unitPrice?: UnitPrice } =>
    reference && pricing
      ? { unitPrice: unitPrice(price, { value, unit: record.unit }, reference, pricing.currency) }
      : {};
  // jsonb does not keep key order; rebuild objects in the documented order.
  const onlineStore: Variant['settings']['onlineStore'] =
    record.displayStyle === 'number'
      ? { displayStyle: 'number', rules: record.rules ? orderRules(record.rules) : undefined }
      : {
          displayStyle: record.displayStyle,
          presets: (record.presets ?? []).map((preset) => ({
            ...orderPreset(preset),
            ...(preset.price === undefined ? {} : priced(preset.price, preset.value)),
          })),
        };
  if (record.dimensions) onlineStore.dimensions = record.dimensions.map(orderDimension);
  if (record.overagePercent !== null) onlineStore.overagePercent = Number(record.overagePercent);
  return {
    id: record.id,
    unitMeasurement: { unit: record.unit, value: Number(record.unitValue) },
    settings: { onlineStore },
    ...priced(record.price, record.unitValue),
    ...(record.stockItemId ? { stockItemId: record.stockItemId } : {}),
  };
}

const orderRules = ({ min, increment, defaultValue, max }: VariantRules) => ({ min, increment, defaultValue, max });
const orderDimension = ({ name, unit, rules, fixed }: DimensionSetting) => ({
  name,
  unit,
  ...(rules ? { rules: orderRules(rules) } : {}),
  ...(fixed === undefined ? {} : { fixed }),
});
const orderPreset = ({ value, label, price }: VariantPreset) => ({
  value,
  ...(label === undefined ? {} : { label }),
  ...(price === undefined ? {} : { price }),
});

// Same details as a schema failure of the query (`in` names the part), so clients handle one shape.
const invalidCursor = (message: string) => errors.validation([{ path: '/cursor', message }], 'querystring');

/**
 * Reads products and variants for one shop. Answers are cached for `cacheTtlMs` (≤ 5 min) and
 * dropped as soon as the shop's catalog changes.
 */
export function createCatalogService(deps: { db: Db; shops: ShopDirectory; cursors: CursorCodec; cacheTtlMs: number }) {
  const cache = createShopCache<ProductPage | VariantAnswer>({ ttlMs: deps.cacheTtlMs });

  async function pricingOf(shopId: string, type: MeasurementType) {
    const { currency, unitPricing } = await deps.shops.get(shopId);
    return { currency, settings: unitPricing, type };
  }

  async function loadProductPage(shopId: string, productId: string, limit: number, cursor?: string) {
    const from = cursor === undefined ? undefined : deps.cursors.decode(cursor);
    if (cursor !== undefined && !from) throw invalidCursor('is not a cursor this service issued');
    if (from && (from.shopId !== shopId || from.productId !== productId)) {
      throw invalidCursor('belongs to another product');
    }
    const product = await findProduct(deps.db, shopId, productId);
    if (!product) throw errors.notFound('product', productId);
    const pricing = await pricingOf(shopId, product.measurementType);
    const direction = from?.direction ?? 'next';
    const rows = await listVariantsPage(deps.db, shopId, productId, { direction, from, limit });
    const more = rows.length > limit;
    const page = direction === 'next' ? rows.slice(0, limit) : rows.slice(rows.length - Math.min(rows.length, limit));
    const first = page[0];
    const last = page.at(-1);
    const cursorAt = (v: VariantRecord, dir: 'next' | 'prev') =>
      deps.cursors.encode({ shopId, productId, direction: dir, position: v.position, id: v.id });
    // Going forward, "more" means rows after this page; coming back, it means rows before it,
    // and there is always the page we came from after it.
    const hasNext = direction === 'next' ? more : from !== undefined;
    const hasPrev = direction === 'next' ? from !== undefined && first !== undefined : more;
    const meta: PaginationMeta = {
      nextCursor: hasNext && last ? cursorAt(last, 'next') : null,
      prevCursor: hasPrev && first ? cursorAt(first, 'prev') : null,
      hasMore: hasNext,
    };
    return answer(
      {
        product: {
          id: product.id,
          measurementType: product.measurementType,
          variants: page.map((v) => toApiVariant(v, pricing)),
        },
      },
      meta,
    );
  }

  return {
    /** The page itself when cached (see ShopCache.read), else a promise of it. */
    getProduct(
      shopId: string,
      productId: string,
      query: { limit?: number; cursor?: string },
    ): ProductPage | Promise<ProductPage> {
      const limit = query.limit ?? 50;
      return cache.read(shopId, `p:${productId}:${limit}:${query.cursor ?? ''}`, () =>
        loadProductPage(shopId, productId, limit, query.cursor),
      ) as ProductPage | Promise<ProductPage>;
    },
    /** The variant itself when cached (see ShopCache.read), else a promise of it. */
    getVariant(shopId: string, productId: string, variantId: string) {
      return cache.read(shopId, `v:${productId}:${variantId}`, async () => {
        const product = await findProduct(deps.db, shopId, productId);
        if (!product) throw errors.notFound('product', productId);
        const variant = await findVariant(deps.db, shopId, productId, variantId);
        if (!variant) throw errors.notFound('variant', variantId, { productId });
        const pricing = await pricingOf(shopId, product.measurementType);
        return answer(
          {
            variant: {
              ...toApiVariant(variant, pricing),
              product: { id: product.id, measurementType: product.measurementType },
            },
          },
          {},
        );
      }) as VariantAnswer | Promise<VariantAnswer>;
    },
    invalidate: cache.invalidate,
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;
