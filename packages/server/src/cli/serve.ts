import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { startServer } from '../main.js';
import { createLocalGateway } from '../platform/local/local-gateway.js';
import { createApiKey } from '../services/api-keys.js';
import { importCatalog } from '../services/catalog-import/import-catalog.js';
import { migrate } from '../store/migrate.js';
import { openDb } from '../store/open-db.js';
import { listShops } from '../store/repositories/shops.js';
import { demoBanner } from './demo.js';
import { DEMO_CATALOG, DEMO_SHOP } from './demo-catalog.js';
import { internalCliRoute } from './internal-route.js';
import { newHandleToken, readServerHandle, removeServerHandle, writeServerHandle } from './server-handle.js';

/**
 * `tare serve` (what `npm start` runs): migrate, load the demo shop on a store with no shops,
 * listen, and shut down gracefully on SIGTERM/SIGINT.
 */
export async function serve(config: Config): Promise<void> {
  const embedded = !config.databaseUrl;
  const running = embedded ? readServerHandle(config.dataDir) : undefined;
  if (running) {
    throw new Error(`Another Tare server (pid ${running.pid}, ${running.url}) is using ${config.dataDir}.`);
  }
  const token = newHandleToken();
  // Claim the data dir before opening it: CLI commands wait for this server instead.
  if (embedded) {
    writeServerHandle(config.dataDir, { pid: process.pid, url: null, token });
    // Also when start-up fails (port taken, bad store): the claim leaves with the process.
    process.once('exit', () => removeServerHandle(config.dataDir));
  }
  const logger = createLogger(config.logLevel);
  const db = await openDb(config);
  const applied = await migrate(db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  let firstRunKey: string | undefined;
  if ((await listShops(db)).length === 0) {
    await importCatalog({ db, gateway: createLocalGateway() }, DEMO_CATALOG);
    firstRunKey = (await createApiKey(db, { shopDomain: DEMO_SHOP, name: 'demo' })).token;
  }

  const server = await startServer({
    config,
    logger,
    db,
    extraRoutes: embedded ? (services) => internalCliRoute({ services, token }) : undefined,
  });
  if (embedded) writeServerHandle(config.dataDir, { pid: process.pid, url: server.url, token });
  if (firstRunKey) console.log(['', ...demoBanner(firstRunKey, server.url)].join('\n'));
  console.log(`Tare is listening on ${server.url} (store: ${embedded ? `PGlite at ${config.dataDir}` : 'PostgreSQL'})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      await server.close();
      await db.close();
    } finally {
      if (embedded) removeServerHandle(config.dataDir);
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
