/**
 * `@tare/client/picker`: `<tare-measure-picker>` (PRODUCT.md §18) and the pure functions it is
 * made of, which run without a browser. Import `defineTareMeasurePicker` and call it, or load
 * the built script (extensions/tare-measure-picker/assets), which registers the element itself.
 */
export {
  readShopConfig,
  readVariantConfig,
  type PickerShopConfig,
  type PickerVariantConfig,
  type PricingMode,
} from './config.js';
export { pickerFields, type PickerFields } from './fields.js';
export { formatMoney, pickLine, type CartAddItem, type PickedLine, type PickLineInput } from './picked-line.js';
export { localeChain, shopLabels } from './shop-labels.js';
export { defineTareMeasurePicker, PICKER_TAG, PICKER_TEXTS } from './element.js';
