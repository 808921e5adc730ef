import type { ValidationIssue } from '@tare/contracts';

/**
 * Which parts of a document its schema issues leave sound, so that the checks beyond the schema
 * (units, locations, quantities, rules, duplicates) run on every part that can be read and skip
 * only the parts at fault: a file's problems are all reported in one answer. Paths are JSON
 * pointers; `/` is the whole document.
 * @example soundParts([{ path: '/shops/0/currency', message: 'must be string' }]).clean('/shops/0') // false
 */
export function soundParts(issues: readonly ValidationIssue[]) {
  // A valid file (the common case, 100k variants in a large one) pays nothing per check.
  if (issues.length === 0) return { readable: (_path: string) => true, clean: (_path: string) => true };
  const at = new Set(issues.map((issue) => issue.path));
  // Every pointer that holds an issue below it: looked up, not searched, so a file with many
  // issues is still checked in time proportional to its size.
  const above = new Set<string>();
  for (const path of at) {
    for (let end = path.lastIndexOf('/'); end > 0; end = path.lastIndexOf('/', end - 1)) above.add(path.slice(0, end));
  }
  const atOrAbove = (path: string) => {
    if (at.has('/')) return true;
    for (let end = path.length; end > 0; end = path.lastIndexOf('/', end - 1)) {
      if (at.has(path.slice(0, end))) return true;
    }
    return false;
  };
  return {
    /** The value at `path` has the schema's type (its own parts may still be at fault). */
    readable: (path: string) => !atOrAbove(path),
    /** The value at `path` and everything in it passed the schema. */
    clean: (path: string) => !atOrAbove(path) && !above.has(path),
  };
}
export type SoundParts = ReturnType<typeof soundParts>;
