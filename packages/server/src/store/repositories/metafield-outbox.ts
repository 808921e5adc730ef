import type { Queryable } from '../db.js';
import type { DueQueue } from './due-shops.js';

/** NOTIFY channel that wakes the metafield writers of every instance when a document is queued. */
export const METAFIELDS_QUEUED = 'tare_metafields_queued';

/**
 * Whose document: a variant's `$app:tare.measurement` metafield, the shop's `$app:tare.labels`
 * (owner id ''), or a product's variants' unit price measurements (one productVariantsBulkUpdate).
 */
export type MetafieldOwnerType = 'ProductVariant' | 'Shop' | 'Product';

export interface MetafieldDocument {
  ownerType: MetafieldOwnerType;
  ownerId: string;
  document: unknown;
}

/** One document waiting to reach the platform. */
export interface QueuedMetafield extends MetafieldDocument {
  shopId: string;
  generation: string;
  attempts: number;
}

/**
 * Serializes, until the caller's transaction ends, everything that queues one shop's storefront
 * metafields: taken before their documents are read, so that a transaction queueing from what it
 * read cannot commit an older document over one that another committed meanwhile.
 */
export async function lockShopMetafields(tx: Queryable, shopId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`tare:metafields:${shopId}`]);
}

/**
 * Queues, in the caller's transaction, each document that differs from the one queued for its
 * metafield, or (none queued) from the one Shopify last accepted: a newer document replaces a
 * queued older one and is due at once. A document going back to what Shopify last accepted
 * replaces the queued one too rather than dropping it: that one may be in flight already, and
 * Shopify would be left holding it. Returns how many were queued.
 */
export async function queueMetafields(tx: Queryable, shopId: string, documents: MetafieldDocument[]): Promise<number> {
  if (documents.length === 0) return 0;
  const params = [
    shopId,
    documents.map((d) => d.ownerType),
    documents.map((d) => d.ownerId),
    documents.map((d) => JSON.stringify(d.document)),
  ];
  const wanted = `SELECT * FROM unnest($2::text[], $3::text[], $4::jsonb[]) AS w(owner_type, owner_id, document)`;
  // Counted by RETURNING, not rowCount: Citus pulls an INSERT … SELECT from unnest(…) through the
  // coordinator and reports every row it sent, those the ON CONFLICT … WHERE left alone included.
  const { rows } = await tx.query(
    `INSERT INTO metafield_outbox AS o (shop_id, owner_type, owner_id, document)
     SELECT $1, w.owner_type, w.owner_id, w.document FROM (${wanted}) w
      WHERE NOT EXISTS (SELECT 1 FROM metafields_written m
                         WHERE m.shop_id = $1 AND m.owner_type = w.owner_type AND m.owner_id = w.owner_id
                           AND m.document = w.document)
         OR EXISTS (SELECT 1 FROM metafield_outbox q
                     WHERE q.shop_id = $1 AND q.owner_type = w.owner_type AND q.owner_id = w.owner_id)
     ON CONFLICT (shop_id, owner_type, owner_id) DO UPDATE SET
       document = EXCLUDED.document, generation = EXCLUDED.generation, attempts = 0,
       next_attempt_at = EXCLUDED.next_attempt_at, failed_at = NULL, last_error = NULL, enqueued_at = EXCLUDED.enqueued_at
     WHERE o.document <> EXCLUDED.document
     RETURNING 1`,
    params,
  );
  if (rows.length > 0) await tx.query('SELECT pg_notify($1, $2)', [METAFIELDS_QUEUED, shopId]);
  return rows.length;
}

/**
 * The products whose unit price entries were written to the platform or are queued: where unit
 * pricing is off, only these have a unit price to hide (the others were never touched).
 */
export async function productsWithUnitPriceEntries(tx: Queryable, shopId: string): Promise<string[]> {
  const { rows } = await tx.query<{ owner_id: string }>(
    `SELECT owner_id FROM metafields_written WHERE shop_id = $1 AND owner_type = 'Product'
     UNION SELECT owner_id FROM metafield_outbox WHERE shop_id = $1 AND owner_type = 'Product'`,
    [shopId],
  );
  return rows.map((r) => r.owner_id);
}

/** The shop connects (again, perhaps to another store): nothing queued or written counts, every metafield is written anew. */
export async function forgetShopMetafields(tx: Queryable, shopId: string): Promise<void> {
  await tx.query('DELETE FROM metafield_outbox WHERE shop_id = $1', [shopId]);
  await tx.query('DELETE FROM metafields_written WHERE shop_id = $1', [shopId]);
}

/** The metafield outbox as a queue: documents not refused wait for their write. */
export const METAFIELD_QUEUE: DueQueue = {
  table: 'metafield_outbox',
  pending: 'failed_at IS NULL',
};

/**
 * Leases up to `limit` due documents of the shop for `leaseMs`, as the stock outbox leases its
 * pushes: another instance skips them meanwhile, and a worker that dies leaves them due when the
 * lease ends.
 */
export async function leaseDueMetafields(
  db: Queryable,
  shopId: string,
  limit: number,
  leaseMs: number,
): Promise<QueuedMetafield[]> {
  const { rows } = await db.query<{
    shop_id: string;
    owner_type: MetafieldOwnerType;
    owner_id: string;
    document: unknown;
    generation: string;
    attempts: number;
  }>(
    `WITH due AS (
       SELECT o.shop_id, o.owner_type, o.owner_id FROM metafield_outbox o
        WHERE o.shop_id = $3 AND o.failed_at IS NULL AND o.next_attempt_at <= now()
        ORDER BY o.next_attempt_at, o.owner_type, o.owner_id LIMIT $1 FOR UPDATE OF o SKIP LOCKED)
     UPDATE metafield_outbox o SET
       next_attempt_at = now() + make_interval(secs => $2::double precision / 1000), attempts = o.attempts + 1
       FROM due
      WHERE o.shop_id = $3 AND o.shop_id = due.shop_id AND o.owner_type = due.owner_type AND o.owner_id = due.owner_id
     RETURNING o.shop_id, o.owner_type, o.owner_id, o.document, o.generation, o.attempts`,
    [limit, leaseMs, shopId],
  );
  return rows.map((row) => ({
    shopId: row.shop_id,
    ownerType: row.owner_type,
    ownerId: row.owner_id,
    document: row.document,
    generation: row.generation,
    attempts: row.attempts,
  }));
}

const keysOf = (items: QueuedMetafield[]) => [
  items.map((m) => m.ownerType),
  items.map((m) => m.ownerId),
  items.map((m) => m.generation),
];

/**
 * Shopify holds these documents now: each becomes the metafield's written document, and its row
 * goes unless a newer document was queued meanwhile (that one is sent next).
 */
export async function completeMetafields(db: Queryable, written: QueuedMetafield[]): Promise<void> {
  if (written.length === 0) return;
  await db.query(
    `WITH done AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::jsonb[]) AS k(owner_type, owner_id, generation, document)),
     gone AS (
       DELETE FROM metafield_outbox o USING done k
        WHERE o.shop_id = $1 AND o.owner_type = k.owner_type AND o.owner_id = k.owner_id AND o.generation = k.generation)
     INSERT INTO metafields_written (shop_id, owner_type, owner_id, document)
     SELECT $1, owner_type, owner_id, document FROM done
     ON CONFLICT (shop_id, owner_type, owner_id) DO UPDATE SET document = EXCLUDED.document, written_at = EXCLUDED.written_at`,
    [written[0]!.shopId, ...keysOf(written), written.map((m) => JSON.stringify(m.document))],
  );
}

/**
 * Shopify refused these very documents (a user error: sending them again cannot help): they wait
 * with the error, counted as failed, until a newer document replaces them.
 */
export async function failMetafields(db: Queryable, refused: { item: QueuedMetafield; error: string }[]) {
  if (refused.length === 0) return;
  await db.query(
    `UPDATE metafield_outbox o SET failed_at = now(), last_error = k.error
       FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[]) AS k(owner_type, owner_id, generation, error)
      WHERE o.shop_id = $1 AND o.owner_type = k.owner_type AND o.owner_id = k.owner_id AND o.generation = k.generation`,
    [refused[0]!.item.shopId, ...keysOf(refused.map((r) => r.item)), refused.map((r) => r.error.slice(0, 2000))],
  );
}

/** The write failed for a reason that passes (throttling, an outage): tried again after `retryInMs`. */
export async function postponeMetafields(
  db: Queryable,
  shopId: string,
  failure: { error: string; retryInMs: number },
  items?: QueuedMetafield[],
): Promise<void> {
  await db.query(
    `UPDATE metafield_outbox SET last_error = $2,
       next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
      WHERE shop_id = $1 AND failed_at IS NULL
        AND ($4::text[] IS NULL OR (owner_type, owner_id) IN (SELECT * FROM unnest($4::text[], $5::text[])))`,
    [
      shopId,
      failure.error.slice(0, 2000),
      failure.retryInMs,
      items ? items.map((m) => m.ownerType) : null,
      items ? items.map((m) => m.ownerId) : null,
    ],
  );
}

/** The shop's platform takes writes again: what waited behind a failure is due now. */
export async function wakeQueuedMetafields(db: Queryable, shopId: string): Promise<void> {
  const { rowCount } = await db.query(
    `UPDATE metafield_outbox SET next_attempt_at = now(), attempts = 0
      WHERE shop_id = $1 AND failed_at IS NULL AND next_attempt_at > now()`,
    [shopId],
  );
  if (rowCount > 0) await db.query('SELECT pg_notify($1, $2)', [METAFIELDS_QUEUED, shopId]);
}

export interface MetafieldStats {
  pending: number;
  failed: number;
  lastError: string | null;
}

/** Metafield writes waiting and refused, for `tare platform show` and the admin's settings. */
export async function metafieldStats(db: Queryable, shopId: string): Promise<MetafieldStats> {
  const { rows } = await db.query<{ pending: string; failed: string; last_error: string | null }>(
    `SELECT count(*) FILTER (WHERE failed_at IS NULL) AS pending, count(*) FILTER (WHERE failed_at IS NOT NULL) AS failed,
            (array_agg(last_error ORDER BY enqueued_at DESC) FILTER (WHERE last_error IS NOT NULL))[1] AS last_error
       FROM metafield_outbox WHERE shop_id = $1`,
    [shopId],
  );
  const row = rows[0]!;
  return { pending: Number(row.pending), failed: Number(row.failed), lastError: row.last_error };
}
