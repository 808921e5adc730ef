import type { Db, Queryable } from '../../src/store/db.js';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

export const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/**
 * The plan PostgreSQL's own planner (PostgreSQL and PGlite) picks for the first statement `run`
 * sends, as EXPLAIN (FORMAT JSON) gives it. On Citus a statement on a distributed table is
 * planned by Citus (a Custom Scan over one task per shard, each planned on its worker), so plan
 * shapes asserted here do not apply there: planOf refuses a Citus database, and a suite turned
 * on for Citus skips its plan tests there. What Citus must do with each statement (route it to
 * one shard) is checked by test/store/citus-routing.test.ts with Citus's EXPLAIN.
 */
export async function planOf(db: Db, run: (q: Queryable) => Promise<unknown>): Promise<PlanNode> {
  const { rows: citus } = await db.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  if (citus.length > 0)
    throw new Error("planOf reads PostgreSQL's planner: skip plan-shape tests on Citus (see citus-routing.test.ts)");
  let plan: PlanNode | undefined;
  const explaining: Queryable = {
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(
        `EXPLAIN (FORMAT JSON) ${sql}`,
        params,
      );
      const raw = rows[0]!['QUERY PLAN'];
      plan ??= (typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Plan;
      return { rows: [] as Row[], rowCount: 0 };
    },
  };
  await run(explaining);
  return plan!;
}
