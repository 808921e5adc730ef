import { send, type RequestOptions, type TransportConfig } from '../transport.js';
import type {
  AdjustmentsBody,
  InventoryLedgerEntry,
  InventoryLedgerParams,
  InventoryLevel,
  InventoryLevelsParams,
  InventoryWriteData,
  LevelsBody,
  PaginationMeta,
  TareResult,
  TareWriteResult,
} from '../types.js';
import { sendWrite } from './writes.js';

export type InventoryWriteResult = TareWriteResult<InventoryWriteData>;
export type InventoryLevelsResult = TareResult<{ levels: InventoryLevel[] }>;
export type InventoryLedgerResult = TareResult<{ entries: InventoryLedgerEntry[] }, PaginationMeta>;

/**
 * Inventory writes (all-or-nothing batches of 1–100 entries, one per variant) and reads: levels,
 * and the ledger of one level.
 */
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

  /** `GET /inventory/levels`: the levels of 1–100 variants at a location, in the order asked. */
  async levels(params: InventoryLevelsParams, options?: RequestOptions): Promise<InventoryLevelsResult> {
    const response = await send(this.config, {
      method: 'GET',
      path: '/inventory/levels',
      query: { locationId: params.locationId, variantId: params.variantIds },
      options,
    });
    return { data: response.body.data, meta: response.body.meta, requestId: response.requestId };
  }

  /** `GET /inventory/ledger`: one page of a level's ledger, newest first. */
  async ledgerPage(params: InventoryLedgerParams, options?: RequestOptions): Promise<InventoryLedgerResult> {
    const response = await send(this.config, {
      method: 'GET',
      path: '/inventory/ledger',
      query: { locationId: params.locationId, variantId: params.variantId, limit: params.limit, cursor: params.cursor },
      options,
    });
    return { data: response.body.data, meta: response.body.meta, requestId: response.requestId };
  }

  /**
   * Every entry of a level's ledger, newest first, across all pages (from `cursor` when given);
   * fetches each next page lazily. Entries written meanwhile are newer than the first page and
   * are not listed; none is skipped or listed twice.
   */
  async *ledger(
    params: InventoryLedgerParams,
    options?: RequestOptions,
  ): AsyncGenerator<InventoryLedgerEntry, void, undefined> {
    let cursor = params.cursor;
    do {
      const page = await this.ledgerPage({ ...params, cursor }, options);
      yield* page.data.entries;
      cursor = page.meta.hasMore && page.meta.nextCursor ? page.meta.nextCursor : undefined;
    } while (cursor !== undefined);
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
