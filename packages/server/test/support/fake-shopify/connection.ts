/**
 * Relay connections as Shopify pages them: `first`/`after` forwards, `last`/`before` backwards,
 * `reverse` flips the sort, at most 250 a page
 * (https://shopify.dev/docs/api/usage/pagination-graphql). Cursors are opaque to clients; here they
 * hold the item's sort key so a page boundary survives items being added or re-sorted.
 */
export type SortKey = (string | number)[];

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  reverse?: boolean | null;
}

export function encodeCursor(key: SortKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function decodeCursor(cursor: string): SortKey {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(key)) return key as SortKey;
  } catch {
    // fall through: Shopify answers an unreadable cursor with an error
  }
  throw new Error(`Invalid cursor: ${cursor}`);
}

function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

/** One page of `items`, each sorted by `keyOf` (ascending unless `reverse`). */
export function connection<T>(items: readonly T[], args: PageArgs, keyOf: (item: T) => SortKey) {
  const direction = args.reverse ? -1 : 1;
  const sorted = items
    .map((node) => ({ node, key: keyOf(node) }))
    .sort((a, b) => direction * compareKeys(a.key, b.key));
  let window = sorted;
  if (args.after) {
    const after = decodeCursor(args.after);
    window = window.filter((e) => direction * compareKeys(e.key, after) > 0);
  }
  if (args.before) {
    const before = decodeCursor(args.before);
    window = window.filter((e) => direction * compareKeys(e.key, before) < 0);
  }
  let page = window;
  if (args.first != null) page = page.slice(0, args.first);
  if (args.last != null) page = page.slice(Math.max(0, page.length - args.last));
  const edges = page.map((e) => ({ cursor: encodeCursor(e.key), node: e.node }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: args.first != null && window.length > args.first,
      hasPreviousPage: args.last != null && window.length > args.last,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
