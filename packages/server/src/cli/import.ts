import { performance } from 'node:perf_hooks';
import { type ImportProgress, importCatalog } from '../services/catalog-import/import-catalog.js';
import { ImportRefusedError } from '../services/catalog-import/stored-stock.js';
import { validateImport } from '../services/catalog-import/validate-import.js';
import { type StoreCommand, UsageError } from './command.js';
import { jsonError } from './json-error.js';
import { issueLine } from '../messages/issue-words.js';

const USAGE = 'usage: tare import FILE';

/** `tare import FILE`: validates the whole file, then writes it in one transaction. */
export const importCommand: StoreCommand = async (ctx, args) => {
  if (args.length > 1) throw new UsageError(`import takes one FILE, got ${args.length} arguments`, USAGE);
  if (args.length === 0 || ctx.input === undefined) throw new UsageError('import needs FILE', USAGE);
  // The text is taken, not kept: only the parsed document lives on through the import.
  const parsed = parse(ctx.input.take());
  if (!parsed.ok) {
    ctx.io.err(`error: ${args[0]} is not valid JSON: ${parsed.problem}`);
    return 1;
  }
  const refuse = (issues: { path: string; message: string }[]) => {
    ctx.io.err(`error: ${args[0]} was not imported; nothing was written. Fix these entries:`);
    // Each entry by its place in the file (`Shop 1, product 2, price: …`), in words (issueLine).
    for (const issue of issues) ctx.io.err(`  ${issueLine(issue)}`);
    return 1;
  };
  const checked = validateImport(parsed.document);
  if (!checked.ok) return refuse(checked.issues);
  let summary;
  try {
    summary = await importCatalog(ctx, checked.value, { onProgress: ctx.io.progress && progressLine(ctx.io.progress) });
  } catch (error) {
    ctx.io.progress?.('');
    // What only the stored stock can tell (a type change stranding levels) reads like the rest.
    if (error instanceof ImportRefusedError) return refuse(error.issues);
    throw error;
  }
  ctx.io.progress?.('');
  ctx.changed();
  for (const shop of summary.shops) {
    ctx.io.out(`${shop.domain}: ${shop.changes === 0 ? 'unchanged' : `${shop.changes} change(s) written`}`);
  }
  return 0;
};

function parse(text: string): { ok: true; document: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, document: JSON.parse(text) };
  } catch (error) {
    const where = jsonError(text);
    return {
      ok: false,
      problem: where ? `line ${where.line}, column ${where.column}: ${where.problem}` : (error as Error).message,
    };
  }
}

/** `importing shop: 42,000 of 210,000 rows, 3,512 rows/s, about 48 s left` (products, variants, levels). */
function progressLine(show: (line: string) => void): (progress: ImportProgress) => void {
  const started = performance.now();
  const count = (n: number) => n.toLocaleString('en-US');
  return ({ domain, rows, total }) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = rows / Math.max(seconds, 0.001);
    const left = Math.ceil((total - rows) / rate);
    show(
      `importing ${domain}: ${count(rows)} of ${count(total)} rows, ${count(Math.round(rate))} rows/s` +
        (rows < total ? `, about ${left} s left` : ''),
    );
  };
}
