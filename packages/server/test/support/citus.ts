import { randomBytes } from 'node:crypto';
import pg from 'pg';

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

/**
 * An empty database named tare_c_<random> on every node of the Citus cluster whose coordinator
 * `url` points at, with the extension and the workers registered, as `cluster.sh createdb` makes
 * it (CREATE DATABASE on the coordinator alone leaves the workers without it). `url` names a
 * database of that cluster where the workers are registered (the one `cluster.sh createdb`
 * printed): the workers are read from it. drop() removes the database from every node.
 */
export async function createCitusDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const coordinator = new URL(url);
  const workers = await query<Node>(
    url,
    `SELECT nodename AS host, nodeport AS port FROM pg_dist_node
      WHERE noderole = 'primary' AND groupid <> 0 ORDER BY nodeid`,
  );
  if (workers.length === 0)
    throw new Error(`TEST_CITUS_URL (${url}) names a database with no Citus workers registered`);
  const nodes = [{ host: coordinator.hostname, port: Number(coordinator.port || 5432) }, ...workers];
  const name = `tare_c_${randomBytes(6).toString('hex')}`;
  const on = (node: Node, database: string) => {
    const target = new URL(url);
    target.hostname = node.host;
    target.port = String(node.port);
    target.pathname = `/${database}`;
    return target.toString();
  };
  const drop = async () => {
    await Promise.all(nodes.map((node) => query(on(node, 'postgres'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  };
  try {
    await Promise.all(nodes.map((node) => query(on(node, 'postgres'), `CREATE DATABASE ${name}`)));
    await Promise.all(nodes.map((node) => query(on(node, name), 'CREATE EXTENSION citus')));
    const own = on(nodes[0]!, name);
    await query(own, `ALTER DATABASE ${name} SET citus.shard_count = ${TEST_SHARD_COUNT}`);
    await query(own, 'SELECT citus_set_coordinator_host($1, $2)', [nodes[0]!.host, nodes[0]!.port]);
    for (const worker of workers) await query(own, 'SELECT citus_add_node($1, $2)', [worker.host, worker.port]);
    return { url: own, drop };
  } catch (err) {
    await drop();
    throw err;
  }
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
