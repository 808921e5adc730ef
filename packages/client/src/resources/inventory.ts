import type { TransportConfig, RequestOptions } from '../transport.js';
import type { AdjustmentsBody, InventoryWriteData, LevelsBody, TareWriteResult } from '../types.js';
import { sendWrite } from './writes.js';

export type InventoryWriteResult = TareWriteResult<InventoryWriteData>;

/** Inventory writes: all-or-nothing batches of 1–100 entries, one per variant. */
export class InventoryResource {
  constructor(private readonly config: TransportConfig) {}

  /** `POST /inventory/adjustments`: changes stock relative to what it is. */
  adjust(params: AdjustmentsBody, options?: RequestOptions): Promise<InventoryWriteResult> {
    return sendWrite(
      this.config,
      {
        method: 'POST',
        path: '/inventory/adjustments',
        body: { locationId: params.locationId, adjustments: params.adjustments },
      },
      options,
    );
  }

  /** `PUT /inventory/levels`: sets stock absolutely (values ≥ 0). */
  setLevels(params: LevelsBody, options?: RequestOptions): Promise<InventoryWriteResult> {
    return sendWrite(
      this.config,
      { method: 'PUT', path: '/inventory/levels', body: { locationId: params.locationId, levels: params.levels } },
      options,
    );
  }
}
