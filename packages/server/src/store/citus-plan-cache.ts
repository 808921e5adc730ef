import pg from 'pg';

/**
 * A guard against a Citus memory leak. Tare prepares its statements (`pg-driver.ts`), and Citus
 * keeps the plan of a prepared single-shard statement that runs on the node holding the shard.
 * In releases with citusdata/citus#8371 and without its fix #8824 (13.2.2 among them), the look-up
 * of that plan always misses. Every execution then parses and plans the shard query again, and
 * appends the plan to the prepared statement's list, about 40 KB each time. A connection to such a
 * node grows without bound: the shard's worker under shard routing, or a coordinator that holds
 * shards itself. Where `leaksLocalPlans` finds the leak, or cannot tell, connections to that node
 * take custom plans (`customPlans`), which Citus plans at each execution and never keeps.
 */
const CUSTOM_PLANS = '-c plan_cache_mode=force_custom_plan';

/** The pool setting that gives `connectionString`'s connections custom plans, beside its own options. */
export function customPlans(connectionString: string): { options: string } {
  const own = new URL(connectionString).searchParams.get('options');
  return { options: own ? `${own} ${CUSTOM_PLANS}` : CUSTOM_PLANS };
}

const PROBE = `SELECT 1 FROM inventory_levels WHERE shop_id = $1 AND location_id = '' AND variant_id = ''`;
const LOCAL = `SELECT EXISTS (SELECT 1 FROM pg_dist_placement
                   WHERE shardid = get_shard_id_for_distribution_column('inventory_levels', $1::bigint)
                     AND groupid = (SELECT groupid FROM pg_dist_local_group)) AS local`;
const MEMORY = 'SELECT sum(total_bytes)::text AS bytes FROM pg_backend_memory_contexts';
const RUNS = 16;
/** A kept plan adds nothing per run; a leaked one adds 30–50 KB (measured on 13.2.2). */
const BYTES_PER_RUN = 4096;

/**
 * Whether the node at `connectionString` leaks a plan per execution of a prepared statement on
 * `shopId`'s shard, which must be on that node. Asked on a connection of its own, closed after, so
 * the probe's plans go with it. True when it cannot tell: the shard is not there (any more), or
 * the memory view needs superuser or pg_read_all_stats. Rejects when the node cannot be reached.
 */
export async function leaksLocalPlans(connectionString: string, shopId: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    // A shard moved away since it was looked up would be run remotely and show nothing.
    const { rows } = await client.query<{ local: boolean }>(LOCAL, [shopId]);
    if (!rows[0]?.local) return true;
    await client.query('SET plan_cache_mode = force_generic_plan');
    const probe = { name: 'tare_local_plan_probe', text: PROBE, values: [shopId] };
    const used = async () => Number((await client.query<{ bytes: string }>(MEMORY)).rows[0]?.bytes);
    // Citus keeps a plan from the prepared statement's second run; measure from the fourth.
    for (let run = 0; run < 4; run++) await client.query(probe);
    const before = await used();
    for (let run = 0; run < RUNS; run++) await client.query(probe);
    const grown = (await used()) - before;
    return !(grown < RUNS * BYTES_PER_RUN);
  } catch {
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Whether the coordinator holds shards itself, or will once tables are distributed (a single-node
 * cluster, or a coordinator added with shards), and a shop of one of its shards to probe with:
 * none before the tables are distributed.
 */
export async function coordinatorShards(coordinator: pg.Pool): Promise<{ holds: boolean; shop?: string }> {
  const { rows } = await coordinator.query<{ shop: string | null; holds: boolean }>(
    `SELECT shop.s AS shop,
            shop.s IS NOT NULL
              OR EXISTS (SELECT 1 FROM pg_dist_node WHERE groupid = 0 AND shouldhaveshards)
              OR NOT EXISTS (SELECT 1 FROM pg_dist_node WHERE groupid <> 0) AS holds
       FROM (SELECT (SELECT s::text
                       FROM pg_dist_placement p
                       JOIN pg_dist_shard d ON d.shardid = p.shardid AND d.logicalrelid = to_regclass('inventory_levels')
                       CROSS JOIN LATERAL generate_series(1, 100000) AS s
                      WHERE p.groupid = 0 AND get_shard_id_for_distribution_column(d.logicalrelid, s) = p.shardid
                      LIMIT 1) AS s) AS shop`,
  );
  const found = rows[0]!;
  return { holds: found.holds, shop: found.shop ?? undefined };
}
