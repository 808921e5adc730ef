import type { Db, Queryable } from '../../src/store/db.js';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

export const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** The plan PostgreSQL picks for the first statement `run` sends, as EXPLAIN (FORMAT JSON) gives it. */
export async function planOf(db: Db, run: (q: Queryable) => Promise<unknown>): Promise<PlanNode> {
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
