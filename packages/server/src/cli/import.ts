import { importCatalog } from '../services/catalog-import/import-catalog.js';
import { validateImport } from '../services/catalog-import/validate-import.js';
import { type StoreCommand, UsageError } from './command.js';

/** `tare import FILE`: validates the whole file, then writes it in one transaction. */
export const importCommand: StoreCommand = async (ctx, args) => {
  if (args.length !== 1 || ctx.input === undefined) throw new UsageError('usage: tare import FILE');
  let document: unknown;
  try {
    document = JSON.parse(ctx.input);
  } catch (error) {
    ctx.io.err(`error: ${args[0]} is not valid JSON: ${(error as Error).message}`);
    return 1;
  }
  const checked = validateImport(document);
  if (!checked.ok) {
    ctx.io.err(`error: ${args[0]} was not imported; nothing was written. Fix these entries:`);
    for (const issue of checked.issues) ctx.io.err(`  ${issue.path}: ${issue.message}`);
    return 1;
  }
  const summary = await importCatalog(ctx, checked.value);
  ctx.changed();
  for (const shop of summary.shops) {
    ctx.io.out(`${shop.domain}: ${shop.changes === 0 ? 'unchanged' : `${shop.changes} change(s) written`}`);
  }
  return 0;
};
