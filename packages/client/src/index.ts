export { TareClient, type TareClientOptions } from './client.js';
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TareError,
  UnprocessableError,
  type TareErrorCode,
} from './errors.js';
export type { FetchLike, RequestOptions } from './transport.js';
export type { SettingsResult } from './resources/settings.js';
export type { ProductResult, VariantResult } from './resources/products.js';
export type { InventoryLedgerResult, InventoryLevelsResult, InventoryWriteResult } from './resources/inventory.js';
export type { OrderEditResult, OrderResult } from './resources/orders.js';
export type { ScaleBarcodeResult } from './resources/scale-barcodes.js';
export type { StockItemLevelsResult } from './resources/stock-items.js';
export {
  decodeScaleBarcode,
  ean13CheckDigit,
  priceVerifierDigit,
  scaleFormatProblems,
  type ScaleBarcodeDecoding,
  type ScaleBarcodeFormat,
  type ScaleBarcodeRefusalReason,
  type ScaleLabel,
} from './scale-barcode.js';
export * from './types.js';
export {
  CartInputError,
  buildLineItemProperties,
  cartLinePrice,
  cartVariantId,
  checkMeasurementRules,
  numericVariantId,
  onlineStoreIssues,
  scannedLineItem,
  type ScannedLineInput,
  renderTemplate,
  validateLineItemProperties,
  SVC_DATA_PROPERTY,
  type BuildLineItemInput,
  type CartLinePriceInput,
  type LineItemProperty,
  type MeasurementRules,
  type MeasurementRulesVariant,
  type OnlineStoreSettings,
  type SettingsIssue,
} from './cart/index.js';
