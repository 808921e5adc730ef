export { CartInputError } from './errors.js';
export { renderTemplate } from './template.js';
export {
  buildLineItemProperties,
  validateLineItemProperties,
  SVC_DATA_PROPERTY,
  type BuildLineItemInput,
  type LineItemProperty,
} from './line-item.js';
export { checkMeasurementRules, type MeasurementRulesVariant } from './rules.js';
export { cartVariantId, numericVariantId } from './ids.js';
