import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db.js';

/**
 * A per-deployment secret, created on first use and then shared by every instance (so a cursor
 * signed by one instance is accepted by all). Concurrent creators agree on the first insert.
 */
export async function serverSecret(db: Queryable, name: string): Promise<Buffer> {
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32),
  ]);
  const { rows } = await db.query<{ value: Uint8Array }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  if (!rows[0]) throw new Error(`server secret ${name} is missing`);
  return Buffer.from(rows[0].value);
}
