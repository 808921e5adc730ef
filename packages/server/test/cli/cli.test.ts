import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { openPglite } from '../../src/store/pglite-driver.js';
import { createCitusDatabase } from '../support/citus.js';
import { createPostgresDatabase, type ServerDatabase } from '../support/databases.js';
import { call, shopFixture, startTestServer } from '../support/harness.js';

// Every test here launches the real binary; a launch costs 1–4 s, a fresh PGlite data dir ~10 s.
const SLOW = 90_000;
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = 'packages/server/bin/tare.js';
/** A time as the CLI's tables show it: local time to the minute. */
const LOCAL_TIME = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d';
const LOCAL = new RegExp(`^${LOCAL_TIME}$`);
const KEY_LINE = /^apik_[a-z2-7]{16}_[0-9A-Za-z]{32,}\n$/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell, minus anything that would point the CLI elsewhere. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'TARE_DATA_DIR', 'PORT', 'HOST', 'REDIS_URL', 'TARE_BODY_LIMIT'])
    delete env[name];
  return { ...env, LOG_LEVEL: 'silent', ...extra };
}

/** Runs `tare ARGS` to its end; one that hangs (a start that should have failed) is killed. */
function tare(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: REPO_ROOT, env: baseEnv(env), timeout: SLOW - 10_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A TCP port nothing listens on (the OS just handed it out and it was closed again). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Where a CLI run keeps its data, and how the test reads it between runs. */
interface Store {
  name: string;
  env: Record<string, string>;
  /** Opens the store in this process; on PGlite only while no CLI process holds it. */
  open(): Promise<Db>;
  dispose(): Promise<void>;
}

async function pgliteStore(): Promise<Store> {
  const dir = await mkdtemp(join(tmpdir(), 'tare-cli-'));
  return {
    name: 'pglite',
    env: { TARE_DATA_DIR: dir },
    open: () => openPglite({ dataDir: dir }),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A store on an empty database of `make`, which the CLI's first command migrates, as a new user's. */
async function serverStore(name: string, make: () => Promise<ServerDatabase>): Promise<Store> {
  const dir = await mkdtemp(join(tmpdir(), 'tare-cli-'));
  const database = await make();
  return {
    name,
    env: { TARE_DATA_DIR: dir, DATABASE_URL: database.url },
    open: () => openPostgres({ connectionString: database.url }),
    async dispose() {
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const stores: { name: string; make: () => Promise<Store> }[] = [{ name: 'pglite', make: pgliteStore }];
if (process.env.TEST_DATABASE_URL)
  stores.push({ name: 'postgres', make: () => serverStore('postgres', () => createPostgresDatabase()) });
// An empty Citus database, not a copy of the run's migrated template: the CLI's first command
// migrates and distributes the tables, as for a new user pointing DATABASE_URL at a coordinator.
const citusUrl = process.env.TEST_CITUS_URL;
if (citusUrl) stores.push({ name: 'citus', make: () => serverStore('citus', () => createCitusDatabase(citusUrl)) });

/** Every row of every table, in a stable order: equal dumps mean nothing was written. */
async function dump(db: Db): Promise<Record<string, unknown[]>> {
  const { rows: tables } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: Record<string, unknown[]> = {};
  for (const { table_name: table } of tables) {
    out[table] = (await db.query(`SELECT * FROM ${table} t ORDER BY t::text`)).rows;
  }
  return out;
}

/** A one-shop import file with stock, as a user would write it. */
function catalogFile(domain: string) {
  return {
    shops: [
      shopFixture({
        domain,
        products: [
          {
            id: '1001',
            title: 'Coffee beans',
            measurementType: 'weight',
            variants: [
              {
                id: '2001',
                title: 'Arabica',
                price: '24.00',
                unitMeasurement: { unit: 'kg', value: 1 },
                settings: {
                  onlineStore: {
                    displayStyle: 'number',
                    rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null },
                  },
                },
                inventory: [{ locationId: '70001', quantity: { value: 12.75, unit: 'kg' } }],
              },
            ],
          },
        ],
      }),
    ],
  };
}

describe.each(stores)('tare CLI on $name', ({ make }) => {
  let store: Store;
  let work: string;

  beforeAll(async () => {
    store = await make();
    work = await mkdtemp(join(tmpdir(), 'tare-cli-files-'));
  });

  afterAll(async () => {
    await store?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  async function withStore<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    const db = await store.open();
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  /** Status of GET /api/v1/products/1001 with `token`, from a server on the store. */
  const productStatus = (token: string) =>
    withStore(async (db) => {
      const server = await startTestServer(db);
      try {
        return (await call(server, '/api/v1/products/1001', { key: token })).status;
      } finally {
        await server.close();
      }
    });

  it(
    'when a valid file is imported, then a per-shop summary is printed; importing it again prints unchanged and writes nothing',
    async () => {
      const domain = `cli-import-${Date.now()}.example`;
      const file = join(work, 'catalog.json');
      await writeFile(file, JSON.stringify(catalogFile(domain)));

      const first = await tare(['import', file], store.env);
      expect(first.code, first.stderr).toBe(0);
      // shop, location, product, variant, stock level
      expect(first.stdout).toBe(`${domain}: 5 change(s) written\n`);
      const before = await withStore(dump);
      expect(before.shops!.map((s: any) => s.domain)).toContain(domain);
      expect(before.inventory_ledger).toHaveLength(1);

      const again = await tare(['import', file], store.env);
      expect(again).toEqual({ code: 0, stdout: `${domain}: unchanged\n`, stderr: '' });
      expect(await withStore(dump)).toEqual(before);
    },
    SLOW,
  );

  it(
    'when the file is invalid, then it exits 1, names every entry in words on stderr and writes nothing',
    async () => {
      const doc: any = catalogFile(`cli-invalid-${Date.now()}.example`);
      const variants = doc.shops[0].products[0].variants;
      variants[0].unitMeasurement.unit = 'm';
      variants.push({ ...structuredClone(variants[0]), unitMeasurement: { unit: 'kg', value: 1 } });
      doc.shops[0].currency = 'XYZ';
      const file = join(work, 'invalid.json');
      await writeFile(file, JSON.stringify(doc));
      const before = await withStore(dump);

      const run = await tare(['import', file], store.env);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        [
          `error: ${file} was not imported; nothing was written. Fix these entries:`,
          "  Shop 1, currency: unknown ISO 4217 currency 'XYZ'",
          "  Shop 1, product 1, variant 2, id: variant id '2001' appears twice",
          "  Shop 1, product 1, variant 1, unit measurement, unit: unit 'm' is not a weight unit; use one of mg, g, kg, t, oz, lb, st",
          '',
        ].join('\n'),
      );
      expect(await withStore(dump)).toEqual(before);
    },
    SLOW,
  );

  it(
    'when a file changes the type of a product holding stock, then it exits 1 naming the product in words and writes nothing',
    async () => {
      const doc: any = catalogFile(`cli-type-${Date.now()}.example`);
      const file = join(work, 'typed.json');
      await writeFile(file, JSON.stringify(doc));
      expect((await tare(['import', file], store.env)).code).toBe(0);
      const product = doc.shops[0].products[0];
      product.measurementType = 'length';
      product.variants[0].unitMeasurement.unit = 'm';
      delete product.variants[0].inventory;
      await writeFile(file, JSON.stringify(doc));
      const before = await withStore(dump);

      // Only the stored stock tells this one: it is printed like the validator's issues.
      const run = await tare(['import', file], store.env);
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: [
          `error: ${file} was not imported; nothing was written. Fix these entries:`,
          '  Shop 1, product 1, measurement type: cannot change to length: its variants hold stock counted in ' +
            'weight units (1 level: variant 2001 at location 70001; a level at 0 counts), and stock is not ' +
            "converted between types. Restate each of those levels in length units in the variant's inventory, " +
            'or create a new length product.',
          '',
        ].join('\n'),
      });
      expect(await withStore(dump)).toEqual(before);
    },
    SLOW,
  );

  it(
    'when the file is not JSON or does not exist, then it exits 1 with a message naming the file',
    async () => {
      const notJson = join(work, 'not-json.json');
      await writeFile(notJson, '{ "shops": [ ');
      const missing = join(work, 'missing.json');
      // The missing file is refused before the store is opened, so both may run at once.
      const [bad, absent] = await Promise.all([
        tare(['import', notJson], store.env),
        tare(['import', missing], store.env),
      ]);
      expect(bad).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: ${notJson} is not valid JSON: line 1, column 14: expected a value, but the text ends\n`,
      });
      expect(absent).toEqual({ code: 1, stdout: '', stderr: `error: cannot read ${missing}: no such file\n` });
    },
    SLOW,
  );

  it(
    'when keys are created, listed and revoked, then create prints only a working key and revoke stops it',
    async () => {
      const domain = `cli-keys-${Date.now()}.example`;
      await withStore(async (db) => {
        const checked = validateImport(catalogFile(domain));
        if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
        await importCatalog({ db, gateway: createLocalGateway() }, checked.value);
      });

      const created = await tare(['keys', 'create', '--shop', domain, '--name', 'pos terminal'], store.env);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toMatch(KEY_LINE);
      const token = created.stdout.trim();
      const keyId = token.slice(5, 21);
      expect(await productStatus(token)).toBe(200);

      const unknown = await tare(['keys', 'create', '--shop', 'no-such-shop.example'], store.env);
      expect(unknown).toEqual({
        code: 1,
        stdout: '',
        stderr: "error: No shop 'no-such-shop.example'. Import it first (tare import FILE).\n",
      });

      const listed = await tare(['keys', 'list', '--shop', domain], store.env);
      expect(listed.code, listed.stderr).toBe(0);
      const [header, ...rows] = listed.stdout.trimEnd().split('\n');
      // An aligned table: every column starts where its title does, times in local time.
      expect(header!.split(/ {2,}/)).toEqual(['KEY ID', 'SHOP', 'NAME', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED']);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.split(/ {2,}/)).toEqual([
        keyId,
        domain,
        'pos terminal',
        expect.stringMatching(LOCAL),
        '-',
        '-',
        expect.stringMatching(LOCAL),
      ]);
      for (const title of ['SHOP', 'NAME', 'CREATED', 'LAST USED']) {
        const at = header!.indexOf(title);
        expect(rows[0]![at - 1], title).toBe(' ');
        expect(rows[0]![at], title).not.toBe(' ');
      }
      expect(listed.stdout).not.toContain(token.slice(22)); // the secret is never shown again

      // The whole key names its id too.
      const revoked = await tare(['keys', 'revoke', token], store.env);
      expect(revoked).toEqual({ code: 0, stdout: `revoked ${keyId}\n`, stderr: '' });
      expect(await productStatus(token)).toBe(401);

      const again = await tare(['keys', 'revoke', keyId], store.env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(new RegExp(`^${keyId} was already revoked \\(${LOCAL_TIME}\\)\n$`));
    },
    SLOW,
  );
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

describe('tare CLI arguments and start-up failures', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tare-cli-args-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when asked for its version, then it prints it', async () => {
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'packages/server/package.json'), 'utf8'));
    const runs = await Promise.all([tare(['--version'], {}), tare(['-v'], {})]);
    for (const run of runs) expect(run).toEqual({ code: 0, stdout: `tare ${version}\n`, stderr: '' });
  });

  it.each([
    [['keys', 'create'], 'keys create needs --shop DOMAIN', 'tare keys list'],
    [['keys', 'create', '--shp', 'a.example'], "keys create: unknown option '--shp'", 'tare keys list'],
    [['keys', 'create', '--shop'], 'keys create: --shop needs a value', 'tare keys list'],
    [['keys', 'rotate'], "unknown keys command 'rotate'", 'tare keys revoke KEY_ID'],
    [['keys'], 'keys needs a command: create, list or revoke', 'tare keys list'],
    [['keys', 'revoke'], 'keys revoke needs one KEY_ID', 'tare keys revoke KEY_ID'],
    [['addon', 'enable'], 'addon enable needs --shop DOMAIN', 'tare addon enable|disable'],
    [['import'], 'import needs FILE', 'usage: tare import FILE'],
    [['imprt', 'x.json'], "unknown command 'imprt'", 'tare serve'],
  ])(
    'when the arguments are %j, then a line says what is wrong before the usage text, and it exits 2',
    async (args, problem, usage) => {
      // TARE_DATA_DIR does not exist: a mistake in the arguments is found before the store is opened.
      const run = await tare(args, { TARE_DATA_DIR: join(dir, 'never-created') });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      const [first, blank, ...rest] = run.stderr.split('\n');
      expect(first).toBe(`error: ${problem}`);
      expect(blank).toBe('');
      expect(rest.join('\n')).toContain(usage);
      expect(existsSync(join(dir, 'never-created'))).toBe(false);
    },
    SLOW,
  );

  it(
    'when PostgreSQL cannot be reached, then serve and the store commands say so in one line and exit 1',
    async () => {
      const url = `postgres://postgres@127.0.0.1:${await closedPort()}/tare`;
      const runs = await Promise.all([
        tare(['serve'], { DATABASE_URL: url, PORT: '0' }),
        tare(['keys', 'list'], { DATABASE_URL: url }),
      ]);
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(
          new RegExp(
            `^error: Cannot connect to PostgreSQL at ${escapeRegExp(url)}: .*ECONNREFUSED.* \\(DATABASE_URL\\)\n$`,
          ),
        );
      }
    },
    SLOW,
  );
});

/** `tare serve` as a child process on an empty PGlite data dir, and CLI commands handed to it. */
/** A `tare serve` child process, up once it prints where it listens. */
interface Serving {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  url: string;
  stdout(): string;
  /** Resolves once the output so far matches `pattern`. */
  printed(pattern: RegExp): Promise<string>;
}

async function startServe(env: Record<string, string>, children: ChildProcess[]): Promise<Serving> {
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: REPO_ROOT, env: baseEnv({ PORT: '0', ...env }) });
  children.push(child); // ended by the caller's afterAll, whatever happens
  const exit: Serving['exit'] = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const printed = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(stdout)) return false;
        child.stdout!.off('data', check);
        resolve(stdout);
        return true;
      };
      if (check()) return;
      child.stdout!.on('data', check);
      void exit.then(({ code }) =>
        reject(new Error(`tare serve exited (${code}) before printing ${pattern}: ${stderr}`)),
      );
    });
  const url = /Tare is listening on (http:\/\/\S+)/.exec(await printed(/Tare is listening on (http:\/\/\S+)/))![1]!;
  return { child, exit, url, stdout: () => stdout, printed };
}

async function endAll(children: ChildProcess[]): Promise<void> {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

describe('tare serve with CLI hand-off on pglite', () => {
  let dir: string;
  let work: string;
  const children: ChildProcess[] = [];
  let child: ChildProcess;
  let stdout = '';
  let url: string;
  let exit: Serving['exit'];
  /** The first start, on a port another program holds. */
  let portTaken: Run;
  let busyPort: number;
  let handleLeft: boolean;
  const env = () => ({ TARE_DATA_DIR: dir });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tare-serve-'));
    work = await mkdtemp(join(tmpdir(), 'tare-serve-files-'));
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      busyPort = (blocker.address() as AddressInfo).port;
      portTaken = await tare(['serve'], { TARE_DATA_DIR: dir, PORT: String(busyPort) });
      handleLeft = existsSync(join(dir, 'server.json'));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const serving = await startServe(env(), children);
    ({ child, exit, url } = serving);
    stdout = serving.stdout();
  }, SLOW);

  afterAll(async () => {
    await endAll(children);
    if (dir) await rm(dir, { recursive: true, force: true });
    if (work) await rm(work, { recursive: true, force: true });
  });

  const get = async (path: string, init: { key: string }) => {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${init.key}` } });
    return { status: response.status, body: (await response.json()) as any };
  };

  const demoKey = () => {
    const match = /^ {2}(apik_[a-z2-7]{16}_[0-9A-Za-z]{32,})$/m.exec(stdout);
    if (!match) throw new Error(`no demo key in: ${stdout}`);
    return match[1]!;
  };

  it('when the first start finds its port taken, then it says so in one line, exits 1 and shows no key yet', () => {
    expect(portTaken.code).toBe(1);
    expect(portTaken.stderr).toBe(
      `error: port ${busyPort} on 127.0.0.1 is already in use; stop what listens there, or set PORT to another port (PORT=0 picks a free one)\n`,
    );
    expect(portTaken.stdout).not.toMatch(/apik_/);
    expect(handleLeft).toBe(false);
  });

  it('when a second serve starts on the same data dir, then it says which server holds it and exits 1', async () => {
    const second = await tare(['serve'], { ...env(), PORT: '0' });
    expect(second).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: another Tare server (pid ${child.pid}, ${url}) is using ${dir}; stop it first, or set TARE_DATA_DIR to another directory\n`,
    });
  });

  it('when serve starts on an empty data dir, then it leaves a private handle file for the CLI', async () => {
    const handlePath = join(dir, 'server.json');
    const handle = JSON.parse(await readFile(handlePath, 'utf8'));
    expect(handle).toEqual({ pid: child.pid, url, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(statSync(handlePath).mode & 0o777).toBe(0o600);
  });

  it('when serve starts, then it prints the demo shop’s sandbox storefront, whose coffee page holds the measure picker', async () => {
    const storefront = /Sandbox storefront, to buy by measure as a customer: (\S+)$/m.exec(stdout);
    expect(storefront, stdout).not.toBeNull();
    expect(storefront![1]).toBe(`${url}/sandbox/storefront/demo-shop.example/`);
    const front = await fetch(storefront![1]!);
    expect(front.status).toBe(200);
    const coffee = await fetch(`${storefront![1]}products/1001`);
    expect(await coffee.text()).toContain('<tare-measure-picker variant-id="2001"');
  });

  it('when serve starts after that failed first start, then the printed curl works with the printed demo key', async () => {
    const key = demoKey();
    const curl = /curl -H "Authorization: Bearer (\S+)" "(\S+\/api\/v1\/app-settings\?locale=en)"/.exec(stdout);
    expect(curl, stdout).not.toBeNull();
    expect(curl![1]).toBe(key);
    expect(curl![2]).toBe(`${url}/api/v1/app-settings?locale=en`);

    const response = await fetch(curl![2]!, { headers: { Authorization: `Bearer ${curl![1]}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.meta).toEqual({ locale: 'en' });
    expect(body.data.settings.mergeMatchingLineItems).toBe(true);
    const labels = body.data.settings.localizedLabels;
    // The demo shop sells weight (kg, g), length (m), area (m2), volume (L, m3) and time (h),
    // shows unit prices (its reference unit price labels) and sells carpet and timber made from
    // dimensions (PRODUCT.md §19).
    expect(Object.keys(labels).sort()).toEqual(
      [
        'dimensions',
        'dimensions_value',
        'overage',
        'overage_value',
        'unitPrice',
        'unitPricePropertyName',
        'unitPricePropertyValue',
        'referenceUnitPrice',
        'referenceUnitPriceValue',
        'netMeasurementLabel',
        'netMeasurementValue',
        'netWeight',
        'netLength',
        'netArea',
        'netVolume',
        'netTime',
        ...[
          'weight_value_kg',
          'weight_value_g',
          'length_value_m',
          'area_value_m2',
          'volume_value_L',
          'volume_value_m3',
          'time_value_h',
        ].map((k) => `unitPrice_${k}`),
        ...[
          'Weight_value_kg',
          'Weight_value_g',
          'Length_value_m',
          'Area_value_m2',
          'Volume_value_L',
          'Volume_value_m3',
          'Time_value_h',
        ].map((k) => `net${k}`),
      ].sort(),
    );
    expect(labels.unitPrice).toBe('Unit price');
    expect(labels.netWeight).toBe('Net weight');

    // The sandbox curl opens a cart, and the stock curl reads the coffee's exact stock.
    const cart = /curl -X POST -H "Authorization: Bearer (\S+)" "(\S+\/sandbox\/carts)"/.exec(stdout);
    expect(cart, stdout).not.toBeNull();
    const opened = await fetch(cart![2]!, { method: 'POST', headers: { Authorization: `Bearer ${cart![1]}` } });
    expect(opened.status).toBe(201);
    expect(((await opened.json()) as any).data).toMatchObject({ items: [], currency: 'USD' });
    const stock = /curl -H "Authorization: Bearer (\S+)" "(\S+\/api\/v1\/inventory\/levels\?\S+)"/.exec(stdout);
    const level = await fetch(stock![2]!, { headers: { Authorization: `Bearer ${stock![1]}` } });
    expect(((await level.json()) as any).data.levels[0]).toMatchObject({ quantity: { value: 12.75, unit: 'kg' } });
  });

  it(
    'when import runs while serve holds the data dir, then the server applies it and the next request sees it',
    async () => {
      const auth = { key: demoKey() };
      const before = await get('/api/v1/products/1001', auth); // also fills the product cache
      expect(before.status).toBe(200);
      expect(before.body.data.product.variants[0].settings.onlineStore.rules.max).toBeNull();

      const changed = structuredClone(DEMO_CATALOG) as any;
      changed.shops[0].products[0].variants[0].settings.onlineStore.rules.max = 10;
      const file = join(work, 'demo-change.json');
      await writeFile(file, JSON.stringify(changed));
      const run = await tare(['import', file], env());
      expect(run).toEqual({ code: 0, stdout: `${DEMO_SHOP}: 1 change(s) written\n`, stderr: '' });

      const after = await get('/api/v1/products/1001', auth);
      expect(after.status).toBe(200);
      expect(after.body.data.product.variants[0]).toEqual({
        id: '2001',
        unitMeasurement: { unit: 'kg', value: 1 },
        settings: {
          onlineStore: { displayStyle: 'number', rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: 10 } },
        },
        // The demo shop shows unit prices: $24.00 per 1 kg is $24.00 per kg.
        unitPrice: { amount: '24.00', currency: 'USD', reference: { value: 1, unit: 'kg' } },
      });
    },
    SLOW,
  );

  it(
    'when keys create and revoke run while serving, then the key works at once and fails right after revoking',
    async () => {
      const created = await tare(['keys', 'create', '--shop', DEMO_SHOP], env());
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toMatch(KEY_LINE);
      const token = created.stdout.trim();
      expect((await get('/api/v1/app-settings', { key: token })).status).toBe(200);

      const revoked = await tare(['keys', 'revoke', token.slice(5, 21)], env());
      expect(revoked).toEqual({ code: 0, stdout: `revoked ${token.slice(5, 21)}\n`, stderr: '' });
      expect((await get('/api/v1/app-settings', { key: token })).status).toBe(401);
    },
    SLOW,
  );

  it(
    'when demo runs while serving, then it prints a working new key and leaves the stock; demo --reset without a terminal is refused',
    async () => {
      // The merchant received 7.5 kg of coffee: 20.25 kg.
      const level = '/api/v1/inventory/levels?locationId=70001&variantId=2001';
      const adjust = await fetch(`${url}/api/v1/inventory/adjustments`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${demoKey()}`,
          'content-type': 'application/json',
          'idempotency-key': 'cli-demo-restock',
        },
        body: JSON.stringify({
          locationId: '70001',
          adjustments: [{ variantId: '2001', delta: { value: 7.5, unit: 'kg' } }],
        }),
      });
      expect(adjust.status, await adjust.text()).toBe(200);

      const demo = await tare(['demo'], env());
      expect(demo.code, demo.stderr).toBe(0);
      expect(demo.stdout.split('\n')[0]).toBe(
        `Demo shop ${DEMO_SHOP} is already loaded; its data is left as it is. A new API key for it (shown once):`,
      );
      const key = /^ {2}(apik_\S+)$/m.exec(demo.stdout)![1]!;
      const stock = await get(level, { key });
      expect(stock.status).toBe(200);
      expect(stock.body.data.levels[0]).toMatchObject({ quantity: { value: 20.25, unit: 'kg' } });

      const reset = await tare(['demo', '--reset'], env());
      expect(reset.code).toBe(2);
      expect(reset.stderr.split('\n')[0]).toBe(
        `error: demo --reset overwrites ${DEMO_SHOP}'s settings, products, stock and order 5001 with the demo's; run it on a terminal to confirm, or add --yes`,
      );
      expect((await get(level, { key })).body.data.levels[0]).toMatchObject({ quantity: { value: 20.25, unit: 'kg' } });
    },
    SLOW,
  );

  it(
    'when the server gets SIGTERM, then it exits 0 and removes its handle file',
    async () => {
      child.kill('SIGTERM');
      expect(await exit).toEqual({ code: 0, signal: null });
      expect(existsSync(join(dir, 'server.json'))).toBe(false);
    },
    SLOW,
  );

  it(
    'when serve starts again on that store, then it shows no key but one line on how to get one',
    async () => {
      const again = await startServe(env(), children);
      const printed = await again.printed(/API keys: .*\n/);
      expect(printed).not.toMatch(/apik_/);
      expect(printed.trimEnd().split('\n').at(-1)).toBe(
        'API keys: npx tare keys create --shop DOMAIN, or npx tare demo for a new demo-shop key (its data stays as it is)',
      );
      again.child.kill('SIGTERM');
      expect(await again.exit).toEqual({ code: 0, signal: null });
    },
    SLOW,
  );
});
