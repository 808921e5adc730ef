import { InventoryResource } from './resources/inventory.js';
import { OrdersResource } from './resources/orders.js';
import { ProductsResource, VariantsResource } from './resources/products.js';
import { ScaleBarcodesResource } from './resources/scale-barcodes.js';
import { StockItemsResource } from './resources/stock-items.js';
import { SettingsResource } from './resources/settings.js';
import { defaultSleep } from './retry.js';
import type { FetchLike, TransportConfig } from './transport.js';

export interface TareClientOptions {
  /** `apik_<keyId>_<secret>`. */
  apiKey: string;
  /** The service's origin, e.g. `https://tare.example.com` (a trailing `/api/v1` is accepted). */
  baseUrl: string;
  /** Retries after the first attempt on network errors, timeouts, 409, 429 and 5xx. Default 2. */
  maxRetries?: number;
  /** Per attempt, including reading the body. Default 30 000 ms. */
  timeoutMs?: number;
  /** Default `globalThis.fetch` (Node 20, browsers). */
  fetch?: FetchLike;
  /** For tests: waits between retries. */
  sleep?: (ms: number) => Promise<void>;
  /** For tests: the jitter source, in [0, 1). */
  random?: () => number;
  /** For tests: the clock (ms) the settings cache and Retry-After dates read. */
  now?: () => number;
}

/** The Tare API client: `client.<resource>.<verb>(params, options?)`, in the style of stripe-node. */
export class TareClient {
  readonly settings: SettingsResource;
  readonly products: ProductsResource;
  readonly variants: VariantsResource;
  readonly inventory: InventoryResource;
  readonly orders: OrdersResource;
  readonly scaleBarcodes: ScaleBarcodesResource;
  readonly stockItems: StockItemsResource;

  constructor(options: TareClientOptions) {
    if (!options.apiKey) throw new TypeError('TareClient: apiKey is required');
    if (!options.baseUrl) throw new TypeError('TareClient: baseUrl is required');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('TareClient: no fetch available; pass options.fetch');
    const config: TransportConfig = {
      apiKey: options.apiKey,
      baseUrl: options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, ''),
      maxRetries: Math.max(0, options.maxRetries ?? 2),
      timeoutMs: options.timeoutMs ?? 30_000,
      // Unbound, window.fetch throws "Illegal invocation" in browsers.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      sleep: options.sleep ?? defaultSleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    };
    this.settings = new SettingsResource(config);
    this.products = new ProductsResource(config);
    this.variants = new VariantsResource(config);
    this.inventory = new InventoryResource(config);
    this.orders = new OrdersResource(config);
    this.scaleBarcodes = new ScaleBarcodesResource(config);
    this.stockItems = new StockItemsResource(config);
  }
}
