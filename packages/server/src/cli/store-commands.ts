import { addonCommand } from './addon.js';
import type { StoreCommand } from './command.js';
import { demoCommand } from './demo.js';
import { importCommand } from './import.js';
import { keysCommand } from './keys.js';

/** Commands that work on the store, by name: run here or handed to a running server. */
export const STORE_COMMANDS: Record<string, StoreCommand> = {
  import: importCommand,
  keys: keysCommand,
  demo: demoCommand,
  addon: addonCommand,
  // Opening the store applies pending migrations, so by now the schema is current.
  migrate: async (ctx) => {
    ctx.io.out('schema is up to date');
    return 0;
  },
};
