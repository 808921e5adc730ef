import type { Actor } from '../../domain/actor.js';
import type { InventoryLedgerEntry, InventoryLevel, PaginationMeta, ValidationIssue } from '@tare/contracts';
import type { CursorCodec } from '../../domain/cursor.js';
import { Dec, toJsonNumber } from '../../domain/decimal.js';
import { decodeLedgerCursor, encodeLedgerCursor } from '../../domain/ledger-cursor.js';
import { splitForPlatform } from '../../domain/platform-split.js';
import { convertForStorage } from '../../domain/units.js';
import { AppError, errors } from '../../errors.js';
import type { Db } from '../../store/db.js';
import {
  type LedgerRow,
  type LevelRead,
  readLedgerPage,
  readLevels,
} from '../../store/repositories/inventory-reads.js';

export interface LedgerPage {
  data: { entries: InventoryLedgerEntry[] };
  meta: PaginationMeta;
}

/**
 * A ledger page with who made each entry, by entry id: for the admin only, the API's ledger
 * entries carry no actor (PRODUCT.md §13 lists their fields; decision in docs/decisions.md).
 */
export interface LedgerPageWithActors extends LedgerPage {
  actors: Map<string, Actor | null>;
}

type LedgerQuery = { locationId: string; variantId: string; limit?: number; cursor?: string };

// The same answers as the inventory writes give for an unknown location or variant.
const unknownVariants = (ids: string[]) =>
  new AppError('not_found', `No variant ${ids.map((id) => `'${id}'`).join(', ')} is configured for this shop.`, {
    resource: 'variant',
    ids,
  });
// Same details as a schema failure of the query, so clients handle one shape.
const invalidQuery = (issues: ValidationIssue[]) => errors.validation(issues, 'querystring');

/**
 * Reads what Tare holds, without writing (PRODUCT.md §13): levels of variants at a location,
 * and the ledger of one level, newest first, keyset-paginated with opaque cursors.
 */
export function createInventoryReader(deps: { db: Db; cursors: CursorCodec }) {
  async function ledgerRows(shopId: string, query: LedgerQuery): Promise<LedgerPage & { rows: LedgerRow[] }> {
    const { locationId, variantId } = query;
    const limit = query.limit ?? 50;
    const from = query.cursor === undefined ? undefined : decodeLedgerCursor(deps.cursors, query.cursor);
    if (query.cursor !== undefined && !from) {
      throw invalidQuery([{ path: '/cursor', message: 'is not a cursor this service issued' }]);
    }
    if (from && (from.shopId !== shopId || from.locationId !== locationId || from.variantId !== variantId)) {
      throw invalidQuery([{ path: '/cursor', message: 'belongs to the ledger of another level' }]);
    }
    const direction = from?.direction ?? 'next';
    const found = await readLedgerPage(
      deps.db,
      { shopId, locationId, variantId },
      { direction, from: from?.entryId, limit: limit + 1 },
    );
    if (!found.locationFound) throw errors.notFound('location', locationId);
    if (!found.variantFound) throw unknownVariants([variantId]);

    // As for product pages: going forward, "more" means entries after this page (older ones);
    // coming back, entries before it (newer ones), and there is always the page we came from.
    const { rows } = found;
    const more = rows.length > limit;
    const page = direction === 'next' ? rows.slice(0, limit) : rows.slice(rows.length - Math.min(rows.length, limit));
    const first = page[0];
    const last = page.at(-1);
    const cursorAt = (row: LedgerRow, dir: 'next' | 'prev') =>
      encodeLedgerCursor(deps.cursors, { shopId, locationId, variantId, direction: dir, entryId: row.id });
    const hasNext = direction === 'next' ? more : from !== undefined;
    const hasPrev = direction === 'next' ? from !== undefined && first !== undefined : more;
    return {
      rows: page,
      data: { entries: page.map(toApiEntry) },
      meta: {
        nextCursor: hasNext && last ? cursorAt(last, 'next') : null,
        prevCursor: hasPrev && first ? cursorAt(first, 'prev') : null,
        hasMore: hasNext,
      },
    };
  }

  return {
    /** The levels of `variantIds` (1–100, distinct) at the location, in the order asked. */
    async levels(shopId: string, locationId: string, variantIds: string[]): Promise<{ levels: InventoryLevel[] }> {
      const seen = new Map<string, number>();
      const issues: ValidationIssue[] = [];
      variantIds.forEach((id, i) => {
        const first = seen.get(id);
        if (first === undefined) seen.set(id, i);
        else
          issues.push({ path: `/variantId/${i}`, message: `variant '${id}' already appears at /variantId/${first}` });
      });
      if (issues.length) throw invalidQuery(issues);

      const { locationFound, levels } = await readLevels(deps.db, shopId, locationId, variantIds);
      if (!locationFound) throw errors.notFound('location', locationId);
      const unknown = variantIds.filter((id) => !levels.has(id));
      if (unknown.length) throw unknownVariants(unknown);
      return { levels: variantIds.map((id) => toApiLevel(locationId, levels.get(id)!)) };
    },

    /** One page of a level's ledger, newest first; `cursor` is a `nextCursor` or `prevCursor`. */
    async ledger(shopId: string, query: LedgerQuery): Promise<LedgerPage> {
      const { data, meta } = await ledgerRows(shopId, query);
      return { data, meta };
    },

    /** As `ledger`, with who made each entry (the admin's ledger). */
    async ledgerWithActors(shopId: string, query: LedgerQuery): Promise<LedgerPageWithActors> {
      const { rows, data, meta } = await ledgerRows(shopId, query);
      return { data, meta, actors: new Map(rows.map((row) => [row.id, row.actor])) };
    },
  };
}
export type InventoryReader = ReturnType<typeof createInventoryReader>;

/**
 * A level in the variant's unit: a level kept in another unit (the variant's unit changed
 * since) is converted as the next write would convert it. A variant without a level reads 0.
 */
function toApiLevel(locationId: string, level: LevelRead): InventoryLevel {
  const total =
    level.total === null ? new Dec(0) : convertForStorage(new Dec(level.total), level.levelUnit!, level.unit);
  const { integer, fraction } = splitForPlatform(total, new Dec(level.unitValue));
  return {
    variantId: level.variantId,
    locationId,
    quantity: { value: toJsonNumber(total), unit: level.unit },
    platform: {
      available: level.platformAvailable === null ? integer.toNumber() : Number(level.platformAvailable),
    },
    fraction: { value: toJsonNumber(fraction), unit: level.unit },
    ...(level.stockItemId === null ? {} : { stockItemId: level.stockItemId }),
    updatedAt: level.updatedAt?.toISOString() ?? null,
  };
}

type Reference = NonNullable<InventoryLedgerEntry['reference']>;

/** A ledger row as the API answers it (`variantId` when the row is a stock item's). */
export function toApiEntry(row: LedgerRow): InventoryLedgerEntry {
  return {
    id: row.id,
    operation: row.operation as InventoryLedgerEntry['operation'],
    delta: toJsonNumber(new Dec(row.delta)),
    quantityBefore: toJsonNumber(new Dec(row.before)),
    quantityAfter: toJsonNumber(new Dec(row.after)),
    unit: row.unit,
    reference:
      row.referenceType === null ? null : { type: row.referenceType as Reference['type'], id: row.referenceId },
    requestId: row.requestId,
    ...(row.variantId === undefined ? {} : { variantId: row.variantId }),
    createdAt: row.createdAt.toISOString(),
  };
}
