import pg from 'pg';
import { customPlans, leaksLocalPlans } from './citus-plan-cache.js';

/**
 * Shard routing (TARE_SHARD_ROUTING=on, Citus only). A transaction of one shop runs on the worker
 * that holds the shop's shard: Citus executes its statements there, on the shard itself, instead
 * of planning each one on the coordinator and sending it over (bench/README.md, "Citus against
 * PostgreSQL"). Every worker holds Citus's metadata, so a statement sent to the wrong one (a shard
 * moved since it was looked up) is still answered right, one hop further; where a shard lives is
 * looked up again after `PLACEMENT_TTL_MS`. A worker Tare cannot reach is left to the coordinator.
 * A worker whose Citus leaks the plans of prepared statements is given custom plans
 * (`citus-plan-cache.ts`), asked once per worker on the first shop routed there.
 */
export interface ShardRouter {
  /**
   * The coordinator, for what a routed transaction asks of it (ids, notifications): a pool of its
   * own, whose statements never wait for a lock, so a routed transaction holding a row lock never
   * waits behind transactions that wait for that lock.
   */
  readonly calls: pg.Pool;
  /**
   * A connection to the worker that holds `shopId`'s shard; none when the coordinator is to serve
   * the shop: its shard is there, or its worker could not be reached (then not tried again until
   * the next look-up).
   */
  connect(shopId: string): Promise<pg.PoolClient | undefined>;
  close(): Promise<void>;
}

const PLACEMENT_TTL_MS = 60_000;
/** More shops than this in the cache (each written in the last minute): start it afresh. */
const MAX_CACHED_SHOPS = 100_000;

/**
 * A router over the workers of `coordinator` (a Citus coordinator), reached with
 * `connectionString`'s user, password and database at the host and port the coordinator knows
 * them by.
 */
export function createShardRouter(
  coordinator: pg.Pool,
  connectionString: string,
  poolConfig: Omit<pg.PoolConfig, 'connectionString'>,
): ShardRouter {
  const pools = new Map<string, Promise<pg.Pool>>();
  const placements = new Map<string, { node: string | undefined; until: number }>();
  const openPool = async (node: string, shopId: string) => {
    const [host, port] = node.split('\t') as [string, string];
    const url = new URL(connectionString);
    url.hostname = host;
    url.port = port;
    const worker = url.toString();
    const guard = (await leaksLocalPlans(worker, shopId)) ? customPlans(worker) : {};
    const pool = new pg.Pool({ ...poolConfig, ...guard, connectionString: worker });
    // As the coordinator's pool: a dropped idle connection must not kill the process.
    pool.on('error', () => {});
    return pool;
  };
  const poolOf = (node: string, shopId: string) => {
    let pool = pools.get(node);
    if (!pool) {
      pool = openPool(node, shopId);
      pools.set(node, pool);
      // A worker not reached is probed again at its shops' next look-up.
      pool.catch(() => pools.delete(node));
    }
    return pool;
  };

  const calls = new pg.Pool({ ...poolConfig, connectionString });
  calls.on('error', () => {});

  return {
    calls,
    async connect(shopId) {
      const now = Date.now();
      let placement = placements.get(shopId);
      if (!placement || placement.until < now) {
        // The shard holding the shop's rows of every tenant table (all colocated with the
        // levels); none before the tables are distributed, or on the coordinator (group 0).
        const { rows } = await coordinator.query<{ host: string; port: number }>(
          `SELECT n.nodename AS host, n.nodeport AS port
             FROM pg_dist_partition d
             CROSS JOIN LATERAL get_shard_id_for_distribution_column(d.logicalrelid, $1::text) AS s(shardid)
             JOIN pg_dist_placement p ON p.shardid = s.shardid
             JOIN pg_dist_node n ON n.groupid = p.groupid
            WHERE d.logicalrelid = to_regclass('inventory_levels')
              AND n.groupid <> 0 AND n.noderole = 'primary' AND n.isactive
            LIMIT 1`,
          [shopId],
        );
        const found = rows[0];
        if (placements.size >= MAX_CACHED_SHOPS) placements.clear();
        placement = { node: found && `${found.host}\t${found.port}`, until: now + PLACEMENT_TTL_MS };
        placements.set(shopId, placement);
      }
      if (placement.node === undefined) return undefined;
      try {
        return await (await poolOf(placement.node, shopId)).connect();
      } catch {
        placements.set(shopId, { node: undefined, until: now + PLACEMENT_TTL_MS });
        return undefined;
      }
    },
    async close() {
      const opened = await Promise.allSettled(pools.values());
      const workers = opened.flatMap((pool) => (pool.status === 'fulfilled' ? [pool.value] : []));
      await Promise.all([calls, ...workers].map((pool) => pool.end()));
    },
  };
}
