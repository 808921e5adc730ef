export { CartInputError } from './errors.js';
export { renderTemplate } from './template.js';
export {
  buildLineItemProperties,
  validateLineItemProperties,
  SVC_DATA_PROPERTY,
  type BuildLineItemInput,
  type LineItemProperty,
} from './line-item.js';
export {
  checkMeasurementRules,
  onlineStoreIssues,
  type MeasurementRules,
  type MeasurementRulesVariant,
  type OnlineStoreSettings,
  type SettingsIssue,
} from './rules.js';
export { cartVariantId, numericVariantId } from './ids.js';
export { cartLinePrice, type CartLinePriceInput } from './price.js';
export { scannedLineItem, type ScannedLineInput } from './scan.js';
