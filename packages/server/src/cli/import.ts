import { importCatalog } from '../services/catalog-import/import-catalog.js';
import { ImportRefusedError } from '../services/catalog-import/stored-stock.js';
import { validateImport } from '../services/catalog-import/validate-import.js';
import { type StoreCommand, UsageError } from './command.js';
import { jsonError } from './json-error.js';

const USAGE = 'usage: tare import FILE';

/** `tare import FILE`: validates the whole file, then writes it in one transaction. */
export const importCommand: StoreCommand = async (ctx, args) => {
  if (args.length > 1) throw new UsageError(`import takes one FILE, got ${args.length} arguments`, USAGE);
  if (args.length === 0 || ctx.input === undefined) throw new UsageError('import needs FILE', USAGE);
  let document: unknown;
  try {
    document = JSON.parse(ctx.input);
  } catch (error) {
    const where = jsonError(ctx.input);
    const problem = where ? `line ${where.line}, column ${where.column}: ${where.problem}` : (error as Error).message;
    ctx.io.err(`error: ${args[0]} is not valid JSON: ${problem}`);
    return 1;
  }
  const refuse = (issues: { path: string; message: string }[]) => {
    ctx.io.err(`error: ${args[0]} was not imported; nothing was written. Fix these entries:`);
    for (const issue of issues) ctx.io.err(`  ${issue.path}: ${issue.message}`);
    return 1;
  };
  const checked = validateImport(document);
  if (!checked.ok) return refuse(checked.issues);
  let summary;
  try {
    summary = await importCatalog(ctx, checked.value);
  } catch (error) {
    // What only the stored stock can tell (a type change stranding levels) reads like the rest.
    if (error instanceof ImportRefusedError) return refuse(error.issues);
    throw error;
  }
  ctx.changed();
  for (const shop of summary.shops) {
    ctx.io.out(`${shop.domain}: ${shop.changes === 0 ? 'unchanged' : `${shop.changes} change(s) written`}`);
  }
  return 0;
};
