import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Queryable } from '../../src/store/db.js';

/**
 * Shards per distributed table in test databases. Production keeps Citus's 32; a test database
 * is created and migrated per suite, and 4 shards (two per worker) still put different shops on
 * different shards and nodes while making the migration several times quicker.
 */
const TEST_SHARD_COUNT = 4;

interface Node {
  host: string;
  port: number;
}

/** The migrated template of test run `run`: one per run, dropped when the run ends (citus-global-setup.ts). */
export const citusTemplateName = (run: string) => `tare_ct_${run}`;

/** The coordinator of `url` and the workers registered in its database. */
async function citusNodes(url: string): Promise<Node[]> {
  const coordinator = new URL(url);
  const workers = await query<Node>(
    url,
    `SELECT nodename AS host, nodeport AS port FROM pg_dist_node
      WHERE noderole = 'primary' AND groupid <> 0 ORDER BY nodeid`,
  );
  if (workers.length === 0)
    throw new Error(`TEST_CITUS_URL (${url}) names a database with no Citus workers registered`);
  return [{ host: coordinator.hostname, port: Number(coordinator.port || 5432) }, ...workers];
}

/** `url` pointed at `database` on `node`. */
function on(url: string, node: Node, database: string): string {
  const target = new URL(url);
  target.hostname = node.host;
  target.port = String(node.port);
  target.pathname = `/${database}`;
  return target.toString();
}

/** Drops `name` from every node of the cluster of `url`, in use or not, if it is there. */
export async function dropCitusDatabase(url: string, name: string): Promise<void> {
  await dropOnNodes(url, await citusNodes(url), name);
}

/**
 * The coordinator's copy first: its sessions (the maintenance daemon's included) are what open
 * connections to the workers' copies, and one opened between a worker's `FORCE` and its drop
 * failed the drop ("being accessed by other users"), seen when drops ran on all nodes at once.
 * A worker's drop that still meets one is tried again.
 */
async function dropOnNodes(url: string, nodes: Node[], name: string): Promise<void> {
  for (const node of nodes) {
    for (let attempt = 1; ; attempt++) {
      try {
        await query(on(url, node, 'postgres'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        break;
      } catch (error) {
        const inUse = (error as { code?: string }).code === '55006';
        if (!inUse || attempt === 5) throw error;
        await sleep(100 * attempt);
      }
    }
  }
}

/**
 * An empty database named tare_c_<random> (or `name`) on every node of the Citus cluster whose
 * coordinator `url` points at, with the extension and the workers registered, as `cluster.sh
 * createdb` makes it (CREATE DATABASE on the coordinator alone leaves the workers without it).
 * `url` names a database of that cluster where the workers are registered (the one `cluster.sh
 * createdb` printed): the workers are read from it. With `template`, each node's database is a
 * copy of that node's `template` (see sealAsTemplate): the same tables, shards and metadata,
 * without migrating again. drop() removes the database from every node.
 */
export async function createCitusDatabase(
  url: string,
  { name = `tare_c_${randomBytes(6).toString('hex')}`, template }: { name?: string; template?: string } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const nodes = await citusNodes(url);
  const drop = () => dropOnNodes(url, nodes, name);
  const own = on(url, nodes[0]!, name);
  try {
    const copy = template ? ` TEMPLATE ${template}` : '';
    await Promise.all(nodes.map((node) => query(on(url, node, 'postgres'), `CREATE DATABASE ${name}${copy}`)));
    if (template) return { url: own, drop };
    await Promise.all(nodes.map((node) => query(on(url, node, name), 'CREATE EXTENSION citus')));
    await query(own, `ALTER DATABASE ${name} SET citus.shard_count = ${TEST_SHARD_COUNT}`);
    await query(own, 'SELECT citus_set_coordinator_host($1, $2)', [nodes[0]!.host, nodes[0]!.port]);
    for (const worker of nodes.slice(1)) await query(own, 'SELECT citus_add_node($1, $2)', [worker.host, worker.port]);
    return { url: own, drop };
  } catch (err) {
    await drop();
    throw err;
  }
}

/**
 * Makes database `name` of the cluster a template: no one may connect to it any more on any node,
 * and whoever was connected (Citus's maintenance daemon and the nodes' connections to each other)
 * is sent away, since PostgreSQL copies a database only while no one else is in it.
 */
export async function sealAsTemplate(url: string, name: string): Promise<void> {
  const nodes = await citusNodes(url);
  await Promise.all(
    nodes.map(async (node) => {
      const postgres = on(url, node, 'postgres');
      await query(postgres, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await query(postgres, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    }),
  );
}

async function query<Row extends object>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The shard holding `shopId`'s inventory levels (and every table colocated with them), and its node's port. */
export async function shardOf(db: Queryable, shopId: string): Promise<{ shard: string; port: number }> {
  const { rows } = await db.query<{ shard: string; port: number }>(
    `SELECT shardid::text AS shard, nodeport AS port FROM citus_shards
      WHERE table_name = 'inventory_levels'::regclass
        AND shardid = get_shard_id_for_distribution_column('inventory_levels', $1::bigint)`,
    [shopId],
  );
  return rows[0]!;
}
