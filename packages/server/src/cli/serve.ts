import type { Config } from '../config.js';
import { createLogger, logFormat } from '../logger.js';
import { type RunningServer, startServer } from '../main.js';
import { createLocalGateway } from '../platform/local/local-gateway.js';
import { createApiKey, listKeys } from '../services/api-keys.js';
import { importCatalog } from '../services/catalog-import/import-catalog.js';
import type { Db } from '../store/db.js';
import { keyringFor } from '../secrets/keyring.js';
import { migrate, onCitus } from '../store/migrate.js';
import { findShopByDomain, hasShops } from '../store/repositories/shops.js';
import { CommandError } from './command.js';
import { demoBanner } from './demo.js';
import { platformOf } from '../platform/platform-of.js';
import { storefrontRoot } from '../services/sandbox-storefront.js';
import { DEMO_CATALOG, DEMO_SHOP } from './demo-catalog.js';
import { internalCliRoute } from './internal-route.js';
import { openStore } from './open-store.js';
import { newHandleToken, readServerHandle, removeServerHandle, writeServerHandle } from './server-handle.js';

/**
 * `tare serve` (what `npm start` runs): migrate, load the demo shop on a store with no shops,
 * listen, and shut down gracefully on SIGTERM/SIGINT. A start that fails says why in one line.
 */
export async function serve(config: Config): Promise<void> {
  const embedded = !config.databaseUrl;
  const running = embedded ? readServerHandle(config.dataDir) : undefined;
  if (running) {
    throw new CommandError(
      `another Tare server (pid ${running.pid}${running.url ? `, ${running.url}` : ''}) is using ${config.dataDir}; ` +
        'stop it first, or set TARE_DATA_DIR to another directory',
    );
  }
  const token = newHandleToken();
  // Claim the data dir before opening it: CLI commands wait for this server instead.
  if (embedded) {
    writeServerHandle(config.dataDir, { pid: process.pid, url: null, token });
    // Also when start-up fails (port taken, bad store): the claim leaves with the process.
    process.once('exit', () => removeServerHandle(config.dataDir));
  }
  const logger = createLogger(config.logLevel, undefined, logFormat(config, process.stdout));
  const db = await openStore(config, 'serve', (message) => logger.warn(message));
  let server: RunningServer;
  try {
    const applied = await migrate(db);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    if (!(await hasShops(db))) await importCatalog({ db, gateway: createLocalGateway() }, DEMO_CATALOG);
    // One keyring for the API and the commands the server runs for the CLI.
    const keyring = keyringFor(config, db.driver);
    server = await startServer({
      config,
      logger,
      db,
      keyring,
      extraRoutes: embedded ? (services) => internalCliRoute({ services, token, keyring }) : undefined,
    });
  } catch (error) {
    await db.close().catch(() => {});
    throw listenFailure(error, config) ?? error;
  }

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
  // Before anything is printed: whoever reads "listening" may stop the server at once.
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  if (embedded) writeServerHandle(config.dataDir, { pid: process.pid, url: server.url, token });
  // The demo key is made only now that the server answers: a start that failed earlier (port
  // taken) leaves the demo shop keyless, and the next start shows a key.
  const demo = await firstDemoKey(db);
  if (demo.key) console.log(['', ...demoBanner(demo.key, server.url)].join('\n'));
  // Where a new user starts (docs/guides/quick-start.md): the demo shop as a customer sees it.
  if (config.sandbox && demo.storefront) {
    console.log(`Sandbox storefront, to buy by measure as a customer: ${server.url}${storefrontRoot(DEMO_SHOP)}`);
  }
  const store = embedded ? `PGlite at ${config.dataDir}` : (await onCitus(db)) ? 'Citus' : 'PostgreSQL';
  console.log(`Tare is listening on ${server.url} (store: ${store})`);
  // `tare demo` is named only where it changes nothing: with the demo shop there, it only makes a key.
  if (!demo.key) {
    console.log(
      'API keys: npx tare keys create --shop DOMAIN' +
        (demo.loaded ? ', or npx tare demo for a new demo-shop key (its data stays as it is)' : ''),
    );
  }
}

/**
 * Whether the demo shop is there (and has its sandbox storefront on), and a new key for it while
 * it has never had one (none shown yet).
 */
async function firstDemoKey(db: Db): Promise<{ loaded: boolean; storefront?: boolean; key?: string }> {
  const demo = await findShopByDomain(db, DEMO_SHOP);
  if (!demo) return { loaded: false };
  const storefront = demo.storefrontEnabled && platformOf(demo) === 'local';
  if ((await listKeys(db, DEMO_SHOP)).length > 0) return { loaded: true, storefront };
  return { loaded: true, storefront, key: (await createApiKey(db, { shopDomain: DEMO_SHOP, name: 'demo' })).token };
}

/** The listen errors a user can fix, said as such. */
function listenFailure(error: unknown, config: Config): CommandError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new CommandError(
      `port ${config.port} on ${config.host} is already in use; stop what listens there, or set PORT to another port (PORT=0 picks a free one)`,
    );
  }
  if (code === 'EACCES') {
    return new CommandError(`no permission to listen on port ${config.port}; set PORT to a port above 1023`);
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new CommandError(`cannot listen on ${config.host}: not an address of this machine (HOST)`);
  }
  return undefined;
}
