import { send, type RequestOptions, type TransportConfig } from '../transport.js';
import type { StockItemLevel, StockItemLevelsParams, TareResult } from '../types.js';

export type StockItemLevelsResult = TareResult<StockItemLevel>;

/** Stock items: one stock shared by several variants (a cheese wheel sold per 100 g, 250 g and 1 kg). */
export class StockItemsResource {
  constructor(private readonly config: TransportConfig) {}

  /** `GET /stock-items/{stockItemId}/levels`: the item's total at a location with every linked variant's whole units. */
  async levels(params: StockItemLevelsParams, options?: RequestOptions): Promise<StockItemLevelsResult> {
    const response = await send(this.config, {
      method: 'GET',
      path: `/stock-items/${encodeURIComponent(params.stockItemId)}/levels`,
      query: { locationId: params.locationId },
      options,
    });
    return { data: response.body.data, meta: response.body.meta, requestId: response.requestId };
  }
}
