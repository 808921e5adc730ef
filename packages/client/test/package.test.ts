/**
 * The package an integrator installs: built, packed and installed into an empty project outside
 * the workspace, then imported by plain JavaScript against a real server and type-checked as a
 * TypeScript consumer, both as ES modules and as CommonJS. Proves the tarball is self-contained
 * (no runtime dependencies, no types from the workspace, no README link to a file it lacks) and
 * that its exports work for `import` and `require` alike.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/main.js';
import type { Db } from '../../server/src/store/db.js';
import { testDrivers } from '../../server/test/support/databases.js';
import { seedShop, shopFixture, startTestServer } from '../../server/test/support/harness.js';

const run = promisify(execFile);
const CLIENT_DIR = fileURLToPath(new URL('../', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const CONSUMER_JS = `
import { TareClient, NotFoundError, buildLineItemProperties, cartVariantId } from '@tare/client';

const tare = new TareClient({ apiKey: process.env.TARE_API_KEY, baseUrl: process.env.TARE_URL });
const { data } = await tare.variants.get('1001', '2001');
const settings = await tare.settings.get({ locale: 'en' });
const properties = buildLineItemProperties({
  product: data.variant.product,
  variant: data.variant,
  labels: settings.data.settings.localizedLabels,
  measurement: { value: 2.5, unit: 'kg' },
  price: '24.00',
  currency: 'USD',
  locale: 'en-US',
});
const write = await tare.inventory.setLevels({
  locationId: '70001',
  levels: [{ variantId: '2001', quantity: { value: 12.75, unit: 'kg' } }],
});
let missing;
try {
  await tare.products.get('999999');
} catch (error) {
  missing = error instanceof NotFoundError ? error.code : String(error);
}
console.log(JSON.stringify({
  gid: cartVariantId('shopify', data.variant.id),
  properties,
  level: write.data.results[0].quantity,
  missing,
}));
`;

const CONSUMER_TS = `
import { TareClient, TareError, type InventoryWriteResult, type LineItemProperty, buildLineItemProperties } from '@tare/client';
import { pickLine, type PickedLine } from '@tare/client/picker';

const tare = new TareClient({ apiKey: 'apik_x_y', baseUrl: 'http://127.0.0.1:1' });
export async function levels(): Promise<number> {
  const result: InventoryWriteResult = await tare.inventory.setLevels({
    locationId: '70001',
    levels: [{ variantId: '2001', quantity: { value: 1, unit: 'kg' } }],
  });
  return result.data.results.length;
}
export const props: LineItemProperty[] = buildLineItemProperties({
  product: { id: '1', measurementType: 'weight' },
  variant: { id: '2', unitMeasurement: { unit: 'kg', value: 1 } },
  labels: {},
  measurement: { value: 1, unit: 'kg' },
  price: '1',
  currency: 'USD',
  locale: 'en',
});
export const isTareError = (e: unknown): e is TareError => e instanceof TareError;

// <tare-measure-picker>'s own entry point: the picker's pure functions, typed.
export const picked: PickedLine = pickLine({
  variantId: '2001',
  variant: { version: 1, type: 'weight', unitMeasurement: { unit: 'kg', value: 1 }, displayStyle: 'number', price: '24.00', currency: 'USD' },
  pricingMode: 'function',
  labels: {},
  locale: 'en',
  value: 1.25,
});
// @ts-expect-error: a quantity value is a number, never a string.
void tare.inventory.adjust({ locationId: '1', adjustments: [{ variantId: '2', delta: { value: '1', unit: 'kg' } }] });
`;

/** The same calls from CommonJS: `require`, no top-level await. */
const CONSUMER_CJS = `
const { TareClient, NotFoundError, TareError, cartVariantId } = require('@tare/client');

(async () => {
  const tare = new TareClient({ apiKey: process.env.TARE_API_KEY, baseUrl: process.env.TARE_URL });
  const { data } = await tare.variants.get('1001', '2001');
  const error = await tare.products.get('999999').catch((e) => e);
  console.log(JSON.stringify({
    gid: cartVariantId('shopify', data.variant.id),
    unit: data.variant.unitMeasurement,
    missing: error instanceof NotFoundError && error instanceof TareError ? error.code : String(error),
    resolved: require.resolve('@tare/client'),
  }));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

/** A TypeScript CommonJS module (.cts under module node16): its imports compile to require(). */
const CONSUMER_CTS = `
import { TareClient, TareError, type InventoryWriteResult, cartVariantId } from '@tare/client';
import client = require('@tare/client');
import { pickLine, type PickedLine } from '@tare/client/picker';

const tare = new TareClient({ apiKey: 'apik_x_y', baseUrl: 'http://127.0.0.1:1' });
export async function levels(): Promise<number> {
  const result: InventoryWriteResult = await tare.inventory.setLevels({
    locationId: '70001',
    levels: [{ variantId: '2001', quantity: { value: 1, unit: 'kg' } }],
  });
  return result.data.results.length;
}
export const gid: string = cartVariantId('shopify', '2001');
export const sameClass: boolean = client.TareError === TareError;

// <tare-measure-picker>'s own entry point: the picker's pure functions, typed.
export const picked: PickedLine = pickLine({
  variantId: '2001',
  variant: { version: 1, type: 'weight', unitMeasurement: { unit: 'kg', value: 1 }, displayStyle: 'number', price: '24.00', currency: 'USD' },
  pricingMode: 'function',
  labels: {},
  locale: 'en',
  value: 1.25,
});
// @ts-expect-error: a quantity value is a number, never a string.
void tare.inventory.adjust({ locationId: '1', adjustments: [{ variantId: '2', delta: { value: '1', unit: 'kg' } }] });
`;

describe('the packed @tare/client installed in a project of its own', () => {
  let project: string;
  let db: Db;
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'tare-client-consumer-'));
    await run(process.execPath, [join(CLIENT_DIR, 'scripts/build.mjs')]);
    await run('npm', ['pack', join(CLIENT_DIR, 'dist'), '--pack-destination', project, '--silent']);
    const [tarball] = (await readdir(project)).filter((name) => name.endsWith('.tgz'));
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', `./${tarball}`, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: project,
    });
    db = await testDrivers()[0]!.create();
    server = await startTestServer(db);
    ({ key } = await seedShop(db, shopFixture()));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await db?.close();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('when installed, then it brings no dependencies, no workspace types and nothing Node-only along', async () => {
    const installed = join(project, 'node_modules/@tare/client');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.private).toBeUndefined();
    expect(await readdir(join(project, 'node_modules'))).toEqual(['.package-lock.json', '@tare']);
    const files = await readdir(installed, { recursive: true });
    for (const file of files.filter((f) => f.endsWith('.d.ts') || f.endsWith('.js'))) {
      const text = await readFile(join(installed, file), 'utf8');
      expect(text, file).not.toMatch(/(from |import\()['"](@tare\/contracts|typebox)|require\(/);
    }
    // Browsers too: nothing Node-only in either bundle.
    for (const bundle of ['index.js', 'cjs/index.js']) {
      expect(await readFile(join(installed, bundle), 'utf8'), bundle).not.toMatch(/\bnode:|\bBuffer\b|\bprocess\./);
    }
  });

  it('when its README is read on npm or in node_modules, then every relative link points at a file in the package', async () => {
    const installed = join(project, 'node_modules/@tare/client');
    const files = new Set((await readdir(installed, { recursive: true })).map((file) => normalize(file)));
    const readme = await readFile(join(installed, 'README.md'), 'utf8');
    const prose = readme.replace(/^(```|~~~)[^]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
    const targets = [
      ...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\)|^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm),
    ].map((m) => (m[1] ?? m[2])!);
    const relative = targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
    const missing = relative.filter((target) => !files.has(normalize(decodeURI(target.split('#')[0]!))));
    expect(missing).toEqual([]);
  });

  it('when plain JavaScript imports it, then it talks to a real server', async () => {
    await writeFile(join(project, 'consumer.mjs'), CONSUMER_JS);
    const { stdout } = await run(process.execPath, ['consumer.mjs'], {
      cwd: project,
      env: { ...process.env, TARE_URL: server.url, TARE_API_KEY: key },
    });
    const out = JSON.parse(stdout);
    expect(out.gid).toBe('gid://shopify/ProductVariant/2001');
    expect(out.properties[0].name).toBe('_svc_data');
    expect(JSON.parse(out.properties[0].value).measurement).toEqual({
      type: 'weight',
      dimensions: [{ unit: 'kg', value: 2.5 }],
    });
    expect(out.level).toEqual({ value: 12.75, unit: 'kg' });
    expect(out.missing).toBe('not_found');
  });

  it('when CommonJS requires it, then it talks to a real server through the CommonJS build', async () => {
    await writeFile(join(project, 'consumer.cjs'), CONSUMER_CJS);
    const { stdout } = await run(process.execPath, ['consumer.cjs'], {
      cwd: project,
      env: { ...process.env, TARE_URL: server.url, TARE_API_KEY: key },
    });
    const out = JSON.parse(stdout);
    expect(out).toEqual({
      gid: 'gid://shopify/ProductVariant/2001',
      unit: { unit: 'kg', value: 1 },
      missing: 'not_found',
      resolved: join(project, 'node_modules/@tare/client/cjs/index.js'),
    });
  });

  it('when a TypeScript CommonJS module (module node16) type-checks against it, then require resolves to declarations of its own', async () => {
    await writeFile(join(project, 'consumer.cts'), CONSUMER_CTS);
    const tsconfig = {
      compilerOptions: {
        noEmit: true,
        strict: true,
        module: 'node16',
        moduleResolution: 'node16',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
        skipLibCheck: false,
        traceResolution: true,
      },
      files: ['consumer.cts'],
    };
    await writeFile(join(project, 'tsconfig.cjs.json'), JSON.stringify(tsconfig));
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.cjs.json'], { cwd: project }).catch(
      (error) => error,
    );
    const output: string = result.stdout ?? '';
    expect(output.split('\n').filter((line) => /error TS/.test(line))).toEqual([]);
    expect(output).toContain(
      "======== Module name '@tare/client' was successfully resolved to '" +
        join(project, 'node_modules/@tare/client/cjs/index.d.ts'),
    );
  });

  it('when a TypeScript project type-checks against it, then its declarations stand alone', async () => {
    await writeFile(join(project, 'consumer.ts'), CONSUMER_TS);
    const compilerOptions = {
      noEmit: true,
      strict: true,
      module: 'nodenext',
      target: 'es2022',
      lib: ['es2022', 'dom'],
    };
    const tsconfig = {
      compilerOptions: { ...compilerOptions, types: [], skipLibCheck: false },
      files: ['consumer.ts'],
    };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project }).catch((error) => error);
    expect(result.stdout ?? '', 'tsc output').toBe('');
  });
});
