import type { StoreCommand } from './command.js';

/**
 * Commands that work on the store, by name: run here or handed to a running server. Each is
 * loaded when it runs, so `tare keys list` does not load the import validator's schemas.
 */
export const STORE_COMMANDS: Record<string, () => Promise<StoreCommand>> = {
  import: async () => (await import('./import.js')).importCommand,
  keys: async () => (await import('./keys.js')).keysCommand,
  'admin-users': async () => (await import('./admin-users.js')).adminUsersCommand,
  demo: async () => (await import('./demo.js')).demoCommand,
  addon: async () => (await import('./addon.js')).addonCommand,
  reconcile: async () => (await import('./reconcile.js')).reconcileCommand,
  platform: async () => (await import('./platform.js')).platformCommand,
  migrate: async () => {
    const { migrate } = await import('../store/migrate.js');
    return async (ctx) => {
      const applied = await migrate(ctx.db);
      if (applied.length) ctx.io.err(`applied migrations: ${applied.join(', ')}`);
      ctx.io.out('schema is up to date');
      return 0;
    };
  },
};
