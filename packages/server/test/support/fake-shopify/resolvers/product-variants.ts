import { gidType, parseGid } from '../gid.js';
import type { FakeStore, FakeUnitPriceMeasurement } from '../state.js';
import { productView, variantView } from '../views.js';
import type { FakeContext } from './context.js';

interface BulkInput {
  id?: string | null;
  price?: string | null;
  compareAtPrice?: string | null;
  showUnitPrice?: boolean | null;
  unitPriceMeasurement?: Partial<FakeUnitPriceMeasurement> | null;
}

interface BulkError {
  code: string;
  field: string[];
  message: string;
}

/**
 * productVariantsBulkUpdate (https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/productVariantsBulkUpdate):
 * updates variants of one product. Each input names its variant (`id`: PRODUCT_VARIANT_ID_MISSING
 * without, PRODUCT_VARIANT_DOES_NOT_EXIST for an unknown one, MUST_BE_FOR_THIS_PRODUCT for another
 * product's); a negative price is GREATER_THAN_OR_EQUAL_TO ("The price of the variant must be
 * greater than or equal to zero"); an unknown product is PRODUCT_DOES_NOT_EXIST. With
 * `allowPartialUpdates: false` (the default) one error updates nothing; with true, the inputs
 * without an error are applied. Codes:
 * https://shopify.dev/docs/api/admin-graphql/2026-04/enums/ProductVariantsBulkUpdateUserErrorCode;
 * input fields: https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/ProductVariantsBulkInput,
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/UnitPriceMeasurementInput.
 */
export function productVariantMutations(context: FakeContext) {
  const { store } = context;
  return {
    productVariantsBulkUpdate: (args: { productId: string; variants: BulkInput[]; allowPartialUpdates?: boolean }) => {
      const product = store.products.get(parseGid(args.productId, 'Product') ?? '');
      if (!product) {
        return {
          product: null,
          productVariants: null,
          userErrors: [{ code: 'PRODUCT_DOES_NOT_EXIST', field: ['productId'], message: 'Product does not exist' }],
        };
      }
      const errorsByInput = args.variants.map((input, i) => inputErrors(store, product.id, input, i));
      const injected = context.faults.takeVariantUpdateRefusal();
      if (injected && errorsByInput.length > 0) {
        errorsByInput[0]!.push({ code: injected.code, field: ['variants', '0'], message: injected.message });
      }
      const userErrors = errorsByInput.flat();
      const apply = args.allowPartialUpdates
        ? errorsByInput.map((e) => e.length === 0)
        : args.variants.map(() => userErrors.length === 0);
      const updated = args.variants.flatMap((input, i) => (apply[i] ? [update(store, input)] : []));
      if (updated.length > 0) product.updatedAt = store.now();
      return {
        product: productView(store, product),
        productVariants: updated.map((v) => variantView(store, v)),
        userErrors,
      };
    },
  };
}

function inputErrors(store: FakeStore, productId: string, input: BulkInput, i: number): BulkError[] {
  const at = (field: string[], code: string, message: string) => [
    { code, field: ['variants', String(i), ...field], message },
  ];
  if (!input.id) return at(['id'], 'PRODUCT_VARIANT_ID_MISSING', 'Product variant id is missing');
  const variant =
    gidType(input.id) === 'ProductVariant' ? store.variants.get(parseGid(input.id, 'ProductVariant')!) : undefined;
  if (!variant) return at(['id'], 'PRODUCT_VARIANT_DOES_NOT_EXIST', 'Product variant does not exist');
  if (variant.productId !== productId)
    return at(['id'], 'MUST_BE_FOR_THIS_PRODUCT', 'Product variant must be for this product');
  for (const field of ['price', 'compareAtPrice'] as const) {
    const amount = input[field];
    if (amount !== undefined && amount !== null && !(Number(amount) >= 0)) {
      return at([field], 'GREATER_THAN_OR_EQUAL_TO', 'The price of the variant must be greater than or equal to zero.');
    }
  }
  const measurement = input.unitPriceMeasurement;
  if (
    measurement &&
    (measurement.quantityValue === undefined ||
      measurement.referenceValue === undefined ||
      !measurement.quantityUnit ||
      !measurement.referenceUnit)
  ) {
    return at(
      ['unitPriceMeasurement'],
      'INVALID_INPUT',
      'Unit price measurement needs quantity and reference values and units',
    );
  }
  if (measurement) return measurementErrors(measurement as FakeUnitPriceMeasurement, at);
  return [];
}

/**
 * The measured type of each unit of UnitPriceMeasurementMeasuredUnit
 * (https://shopify.dev/docs/api/admin-graphql/2026-04/enums/UnitPriceMeasurementMeasuredUnit: the
 * enum's own words, "1 kilogram equals 1000 grams", "1 gallon equals 128 fluid ounces"…), which
 * UnitPriceMeasurement.measuredType answers (AREA, COUNT, LENGTH, VOLUME, WEIGHT).
 */
export const MEASURED_TYPE: Readonly<Record<string, string>> = Object.freeze({
  ML: 'VOLUME',
  CL: 'VOLUME',
  L: 'VOLUME',
  M3: 'VOLUME',
  FLOZ: 'VOLUME',
  PT: 'VOLUME',
  QT: 'VOLUME',
  GAL: 'VOLUME',
  MG: 'WEIGHT',
  G: 'WEIGHT',
  KG: 'WEIGHT',
  OZ: 'WEIGHT',
  LB: 'WEIGHT',
  MM: 'LENGTH',
  CM: 'LENGTH',
  M: 'LENGTH',
  IN: 'LENGTH',
  FT: 'LENGTH',
  YD: 'LENGTH',
  M2: 'AREA',
  FT2: 'AREA',
  ITEM: 'COUNT',
});

/**
 * What Shopify's admin refuses of a complete measurement (unknown enum values never get here: the
 * GraphQL layer refuses them, as Shopify's does): a quantity or reference not above 0, a unit of
 * no type (UNKNOWN), and a quantity and reference of different types, which cannot state a price
 * per measure (a price per kg of something measured in litres).
 */
function measurementErrors(
  measurement: FakeUnitPriceMeasurement,
  at: (field: string[], code: string, message: string) => BulkError[],
): BulkError[] {
  const field = ['unitPriceMeasurement'];
  if (!(measurement.quantityValue > 0))
    return at([...field, 'quantityValue'], 'INVALID_INPUT', 'Quantity value must be greater than 0');
  if (!(measurement.referenceValue > 0)) {
    return at([...field, 'referenceValue'], 'INVALID_INPUT', 'Reference value must be greater than 0');
  }
  const [quantityType, referenceType] = [
    MEASURED_TYPE[measurement.quantityUnit!],
    MEASURED_TYPE[measurement.referenceUnit!],
  ];
  if (!quantityType || !referenceType) return at(field, 'INVALID_INPUT', 'Unit price measurement unit is unknown');
  if (quantityType !== referenceType) {
    return at(field, 'INVALID_INPUT', 'Quantity unit and reference unit must measure the same thing');
  }
  return [];
}

function update(store: FakeStore, input: BulkInput) {
  const variant = store.variants.get(parseGid(input.id!, 'ProductVariant')!)!;
  if (input.price !== undefined && input.price !== null) variant.price = input.price;
  if (input.compareAtPrice !== undefined) variant.compareAtPrice = input.compareAtPrice;
  if (input.showUnitPrice !== undefined && input.showUnitPrice !== null) variant.showUnitPrice = input.showUnitPrice;
  if (input.unitPriceMeasurement !== undefined) {
    const measurement = input.unitPriceMeasurement as FakeUnitPriceMeasurement | null;
    variant.unitPriceMeasurement = measurement && {
      ...measurement,
      measuredType: MEASURED_TYPE[measurement.quantityUnit!]!,
    };
  }
  variant.updatedAt = store.now();
  return variant;
}
