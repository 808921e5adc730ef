/**
 * The part of Shopify's search syntax the fake understands
 * (https://shopify.dev/docs/api/usage/search-syntax): terms joined by spaces or `AND`, each
 * `field:value` or `field:<op>value` with `<op>` one of `> >= < <=`, values bare or quoted, and
 * `OR` between groups of terms. The result is the groups (any may match; all terms of one must).
 * Anything else throws, so a test fails rather than reading an unfiltered list.
 */
export interface SearchTerm {
  field: string;
  op: '=' | '>' | '>=' | '<' | '<=';
  value: string;
}

const TERM = /^(-?)([a-z_]+):(>=|<=|>|<)?(?:'([^']*)'|"([^"]*)"|(\S+))/;

export function parseSearchQuery(query: string | null | undefined): SearchTerm[][] {
  let terms: SearchTerm[] = [];
  const groups = [terms];
  let rest = (query ?? '').trim();
  while (rest.length > 0) {
    if (/^AND\s/.test(rest)) {
      rest = rest.slice(3).trimStart();
      continue;
    }
    if (/^OR\s/.test(rest)) {
      terms = [];
      groups.push(terms);
      rest = rest.slice(2).trimStart();
      continue;
    }
    const match = TERM.exec(rest);
    if (!match || match[1] === '-')
      throw new Error(`The fake Shopify does not understand the search query ${JSON.stringify(query)}`);
    const op = (match[3] ?? '=') as SearchTerm['op'];
    terms.push({ field: match[2]!, op, value: match[4] ?? match[5] ?? match[6]! });
    rest = rest.slice(match[0].length).trimStart();
  }
  return groups;
}

/** Whether an item passes the parsed query, `termMatches` judging one term (and throwing for fields it does not know). */
export function matchesQuery(groups: SearchTerm[][], termMatches: (term: SearchTerm) => boolean): boolean {
  return groups.some((group) => group.every(termMatches));
}

/** Whether `actual` satisfies a term, comparing dates as instants and everything else as text. */
export function matchesTerm(term: SearchTerm, actual: string | number | null, kind: 'date' | 'text'): boolean {
  if (actual === null) return false;
  const [a, b] =
    kind === 'date'
      ? [Number(actual), Date.parse(term.value)]
      : [String(actual).toLowerCase(), term.value.toLowerCase()];
  if (kind === 'date' && Number.isNaN(b)) throw new Error(`Not a date in search query: ${term.value}`);
  switch (term.op) {
    case '=':
      return a === b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
  }
}
