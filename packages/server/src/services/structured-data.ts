import { isUnitPricedType, unitDefinition, unitPrice, unitPriceReference } from '@tare/contracts';
import { decimalFromJson, toPlainString } from '../domain/decimal.js';
import { merchantCenterUnitPricing } from '../domain/merchant-center.js';
import { errors } from '../errors.js';
import type { Db } from '../store/db.js';
import { findProduct, findVariant } from '../store/repositories/catalog.js';
import type { ShopDirectory } from './shop-directory.js';

const rec20 = (unit: string) => unitDefinition(unit)?.rec20 ?? unit;

/**
 * A variant's offer as search engines read it (PRODUCT.md §21): schema.org JSON-LD, an `Offer`
 * whose `UnitPriceSpecification` states the price per unit measurement and, as its
 * `valueReference`, the quantity the shop's unit prices are per; and Google Merchant Center's
 * `unit_pricing_measure` / `unit_pricing_base_measure`. Without unit pricing (off, or time) the
 * Offer has its price alone and `merchantCenter` is null.
 */
export async function variantStructuredData(
  deps: { db: Db; shops: ShopDirectory },
  shopId: string,
  productId: string,
  variantId: string,
) {
  const product = await findProduct(deps.db, shopId, productId);
  if (!product) throw errors.notFound('product', productId);
  const variant = await findVariant(deps.db, shopId, productId, variantId);
  if (!variant) throw errors.notFound('variant', variantId, { productId });
  const { currency, unitPricing } = await deps.shops.get(shopId);
  const type = product.measurementType;
  const reference = unitPriceReference(unitPricing, type);
  const price = variant.price;
  const offer = {
    '@context': 'https://schema.org' as const,
    '@type': 'Offer' as const,
    price,
    priceCurrency: currency,
  };
  if (!reference || !isUnitPricedType(type)) return { jsonLd: offer, merchantCenter: null };

  const measured = { value: Number(variant.unitValue), unit: variant.unit };
  return {
    jsonLd: {
      ...offer,
      priceSpecification: {
        '@type': 'UnitPriceSpecification' as const,
        price,
        priceCurrency: currency,
        referenceQuantity: {
          '@type': 'QuantitativeValue' as const,
          value: measured.value,
          unitCode: rec20(variant.unit),
          valueReference: {
            '@type': 'QuantitativeValue' as const,
            value: Number(toPlainString(decimalFromJson(reference.value))),
            unitCode: rec20(reference.unit),
          },
        },
      },
    },
    merchantCenter: merchantCenterUnitPricing(measured, type, reference),
    unitPrice: unitPrice(price, { value: variant.unitValue, unit: variant.unit }, reference, currency),
  };
}
