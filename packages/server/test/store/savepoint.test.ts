/**
 * `inSavepoint` on both stores: what a failed attempt wrote is undone, the rest of the caller's
 * transaction stands and commits (syncChangedOrders relies on it: one order Tare refuses to book
 * must neither half-book nor stop the others).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../src/store/db.js';
import { inSavepoint } from '../../src/store/savepoint.js';
import { testDrivers } from '../support/databases.js';

describe.each(testDrivers())('inSavepoint on $name', ({ create }) => {
  let db: Db;
  beforeAll(async () => {
    db = await create();
    await db.query('CREATE TABLE savepoint_items (id int PRIMARY KEY)');
  });
  afterAll(() => db?.close());

  const insert = (tx: Queryable, id: number) => tx.query('INSERT INTO savepoint_items (id) VALUES ($1)', [id]);
  const ids = async () =>
    (await db.query<{ id: number }>('SELECT id FROM savepoint_items ORDER BY id')).rows.map((r) => r.id);
  const refused = new Error('refused');

  it('when the attempt throws after writing, then its writes are undone, the error reaches the caller, and the rest commits', async () => {
    await db.query('DELETE FROM savepoint_items');
    await db.transaction(async (tx) => {
      await insert(tx, 1);
      const attempt = inSavepoint(tx, async () => {
        await insert(tx, 2);
        throw refused;
      });
      await expect(attempt).rejects.toBe(refused);
      await expect(inSavepoint(tx, () => insert(tx, 3))).resolves.toMatchObject({ rowCount: 1 });
    });
    expect(await ids()).toEqual([1, 3]);
  });

  it('when a statement fails inside the attempt, then the transaction is not aborted and goes on', async () => {
    await db.query('DELETE FROM savepoint_items');
    await db.transaction(async (tx) => {
      await insert(tx, 1);
      // A duplicate key: outside a savepoint, PostgreSQL would refuse every later statement.
      await expect(inSavepoint(tx, () => insert(tx, 1))).rejects.toThrow(/duplicate key/);
      await insert(tx, 2);
    });
    expect(await ids()).toEqual([1, 2]);
  });

  it('when attempts nest and the inner one fails, then only the inner one is undone', async () => {
    await db.query('DELETE FROM savepoint_items');
    await db.transaction(async (tx) => {
      await inSavepoint(tx, async () => {
        await insert(tx, 1);
        await expect(
          inSavepoint(tx, async () => {
            await insert(tx, 2);
            throw refused;
          }),
        ).rejects.toBe(refused);
        await insert(tx, 3);
      });
    });
    expect(await ids()).toEqual([1, 3]);
  });

  it('when the caller rolls back after a successful attempt, then nothing of it stays', async () => {
    await db.query('DELETE FROM savepoint_items');
    await expect(
      db.transaction(async (tx) => {
        await inSavepoint(tx, () => insert(tx, 1));
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(await ids()).toEqual([]);
  });
});
