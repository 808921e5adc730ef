/**
 * The integrator guides (docs/guides/*.md) are executable, so that everything they say is proven.
 *
 * Each guide runs against its own fresh `tare serve` (empty PGlite store, demo shop only):
 * - its `ts` blocks are concatenated in document order into one ES module, run with
 *   `node --import tsx` from the repository root, so `@tare/client` resolves through the
 *   workspace; the module keeps every block at its Markdown line number, so a failing assertion
 *   at `examples/.snippets/orders.ts:120` is line 120 of docs/guides/orders.md;
 * - each `sh` block runs with `bash -euo pipefail` at its place in the document (the module calls
 *   it between the surrounding `ts` blocks), so every block sees the writes of the blocks above
 *   it, exactly as a reader who pastes them top to bottom.
 * Both get TARE_URL and TARE_API_KEY (and the store's TARE_DATA_DIR for `npx tare` commands).
 * A guide that connects the demo shop to Shopify says so with the marker FAKE_SHOPIFY_MARKER: CI
 * has no Shopify store, so the test starts the fake Shopify Admin API in this process for it
 * (support/guide-shopify.ts) and adds the store's variables to the guide's environment; the fake
 * is closed when the test ends, and fails it if Shopify would have refused any query it got.
 * Other blocks (`console`, `json`, `text`, `http`) are shown, never run. The `ts` blocks are also
 * type-checked as an integrator's strict project would.
 *
 * The guides run one after the other, each server on a copy of one demo store made once for the
 * file (a first start's migrations and demo load are most of a start-up), so that each test's
 * time is its own guide's and not that of every guide at once on a shared machine. Servers and
 * the guides' processes run in process groups that are killed when the test ends, fails or
 * times out (support/tare-process.ts). Links and the import format: docs-standalone.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { TareClient, TareError } from '@tare/client';
import { ERROR_STATUS } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGroup } from '../../packages/server/test/support/child-processes.js';
import { startGuideShopify } from './support/guide-shopify.js';
import { type Block, fencedBlocks } from './support/markdown.js';
import { REPO_ROOT, demoTemplate, startTare } from './support/tare-process.js';

const GUIDES_DIR = join(REPO_ROOT, 'docs/guides');
const SNIPPETS_DIR = join(REPO_ROOT, 'examples/.snippets');
// A guide takes well under a minute on a loaded 2-core machine; past RUN_LIMIT_MS its processes
// are killed and the test fails with their output, before TEST_TIMEOUT_MS would fail it without.
const TEST_TIMEOUT_MS = 120_000;
const RUN_LIMIT_MS = 100_000;
const SHOWN_OR_RUN = ['ts', 'sh', 'console', 'text', 'json', 'http'];
/** An HTML comment, invisible on the rendered page, in a guide that needs a Shopify store. */
const FAKE_SHOPIFY_MARKER = '<!-- docs.test.ts: runs against a fake Shopify -->';

interface Guide {
  name: string;
  path: string;
  markdown: string;
  blocks: Block[];
}

const guides: Guide[] = readdirSync(GUIDES_DIR)
  .filter((file) => file.endsWith('.md') && file !== 'README.md')
  .sort()
  .map((file) => {
    const path = join(GUIDES_DIR, file);
    const markdown = readFileSync(path, 'utf8');
    return { name: file.replace(/\.md$/, ''), path, markdown, blocks: fencedBlocks(markdown) };
  });

const runnable = (guide: Guide) => guide.blocks.filter((b) => b.info === 'ts' || b.info === 'sh');

/**
 * The guide as one module, line for line: `ts` code at its own lines, each `sh` block as a call
 * on its opening fence line, blank lines elsewhere; line 1 (the guide's title) holds the runner.
 */
function moduleOf(guide: Guide): string {
  const out = guide.markdown.split('\n').map(() => '');
  out[0] =
    "import { spawnSync as __spawnSync } from 'node:child_process'; " +
    'const __sh = (script: string, line: number): void => { ' +
    "const r = __spawnSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', stdio: 'pipe' }); " +
    'process.stdout.write(r.stdout ?? ""); process.stderr.write(r.stderr ?? ""); ' +
    `if (r.status !== 0) { console.error(\`\\nsh block at docs/guides/${guide.name}.md:\${line} exited with \${r.status ?? r.signal}\`); process.exit(1); } };`;
  for (const block of guide.blocks) {
    if (block.fenceLine === 1) throw new Error(`${guide.name}: a code block cannot start on line 1`);
    if (block.info === 'ts') block.code.forEach((line, i) => (out[block.fenceLine + i] = line));
    if (block.info === 'sh')
      out[block.fenceLine - 1] = `;__sh(${JSON.stringify(block.code.join('\n'))}, ${block.fenceLine});`;
  }
  return out.join('\n');
}

function snippetFile(guide: Guide): string {
  return join(SNIPPETS_DIR, `${guide.name}.ts`);
}

function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return runGroup(file, args, { cwd: REPO_ROOT, env, signal, timeoutMs: RUN_LIMIT_MS });
}

/** The reader's environment: theirs, minus what would point Tare's CLI at another store. */
function readerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'TARE_DATA_DIR', 'PORT', 'HOST', 'REDIS_URL', 'NODE_OPTIONS']) delete env[name];
  return { ...env, ...extra };
}

beforeAll(async () => {
  await demoTemplate();
  await rm(SNIPPETS_DIR, { recursive: true, force: true });
  await mkdir(SNIPPETS_DIR, { recursive: true });
  for (const guide of guides) await writeFile(snippetFile(guide), moduleOf(guide));
  // An integrator's strict project; noUncheckedIndexedAccess (on in this repo) is not the default.
  const tsconfig = {
    extends: '../../tsconfig.json',
    compilerOptions: { noUncheckedIndexedAccess: false },
    include: ['*.ts'],
  };
  await writeFile(join(SNIPPETS_DIR, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await rm(SNIPPETS_DIR, { recursive: true, force: true });
});

describe('docs/guides', () => {
  it('there are guides, each with runnable blocks', () => {
    expect(guides.map((g) => g.name)).toEqual(
      expect.arrayContaining(['cart-integration', 'errors', 'inventory', 'orders', 'quick-start']),
    );
    for (const guide of guides) {
      expect(runnable(guide).length, `${guide.name} has no ts or sh block`).toBeGreaterThan(0);
      // A `typescript` or `bash` block would silently not run: only these info strings are allowed.
      for (const block of guide.blocks) {
        expect(SHOWN_OR_RUN, `${guide.name}.md:${block.fenceLine}: \`\`\`${block.info}`).toContain(block.info);
      }
    }
  });

  /** The first lines of a guide, as one line of text (its note wraps across lines). */
  const topOf = (guide: Guide) =>
    guide.markdown
      .split('\n')
      .slice(0, 8)
      .join(' ')
      .replace(/\s*>\s*/g, ' ');

  /** Guides whose top says to run them again from a new store: `rm -rf .tare && npm start`. */
  const resetByRemovingStore = (guide: Guide) => topOf(guide).includes('`rm -rf .tare && npm start`');

  for (const guide of guides) {
    const again = resetByRemovingStore(guide);
    it(
      `${guide.name}.md runs against a fresh demo shop${again ? ', and again after its reset line (rm -rf .tare && npm start)' : ''}`,
      async ({ signal, onTestFinished }) => {
        const tare = await startTare('pglite', { fromTemplate: true, signal });
        onTestFinished(() => tare.dispose());
        const shopify = guide.markdown.includes(FAKE_SHOPIFY_MARKER) ? await startGuideShopify(tare) : undefined;
        if (shopify) onTestFinished(() => shopify.fake.close());
        const env = readerEnv({ TARE_URL: tare.url, TARE_API_KEY: tare.apiKey, ...tare.storeEnv, ...shopify?.env });
        const result = await run(process.execPath, ['--import', 'tsx', snippetFile(guide)], env, signal);
        const where = `docs/guides/${guide.name}.md (run as ${relative(REPO_ROOT, snippetFile(guide))}, same line numbers)`;
        const how = result.timedOut ? `was killed after ${RUN_LIMIT_MS} ms` : 'failed';
        expect(result.code, `${where} ${how}:\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0);
        if (again) {
          // As its top says: stop Tare, `rm -rf .tare && npm start`, export the new key, and run it
          // again on the same address; a Shopify guide on a new store too, as its top asks (the
          // first run's stock and orders stay in the old one).
          const apiKey = await tare.resetStore();
          const store = shopify ? await startGuideShopify({ url: tare.url, apiKey }) : undefined;
          if (store) onTestFinished(() => store.fake.close());
          const rerun = await run(
            process.execPath,
            ['--import', 'tsx', snippetFile(guide)],
            { ...env, ...store?.env, TARE_API_KEY: apiKey },
            signal,
          );
          expect(rerun.code, `${where}, run again after its reset line, failed:\n${rerun.stdout}${rerun.stderr}`).toBe(
            0,
          );
          store?.fake.assertNoInvalidQueries();
        }
        shopify?.fake.assertNoInvalidQueries();
      },
      again ? 2 * TEST_TIMEOUT_MS : TEST_TIMEOUT_MS,
    );
  }

  it('each guide says at its top that it runs on its own from a fresh demo shop, and how to get one back', () => {
    for (const guide of guides) {
      expect(topOf(guide), `${guide.name}.md`).toContain('**Runs on its own** from a fresh');
      expect(topOf(guide), `${guide.name}.md`).toMatch(/`npx tare demo --reset`|`rm -rf \.tare && npm start`/);
    }
    // Those that say `rm -rf .tare && npm start` are each run again after it (above).
    expect(guides.filter(resetByRemovingStore).map((g) => g.name)).toEqual(['inventory', 'sandbox', 'shopify']);
  });

  it(
    'each guide whose top gives `npx tare demo --reset` runs again on the demo shop it resets, after any guide',
    async ({ signal, onTestFinished }) => {
      const resettable = guides.filter((g) => /get a fresh one back( later)?: `npx tare demo --reset`/.test(topOf(g)));
      expect(resettable.map((g) => g.name)).toEqual(['cart-integration', 'errors', 'orders', 'quick-start']);
      const tare = await startTare('pglite', { fromTemplate: true, signal });
      onTestFinished(() => tare.dispose());
      const env = readerEnv({ TARE_URL: tare.url, TARE_API_KEY: tare.apiKey, ...tare.storeEnv });
      // Twice through: each guide runs on a shop every other one used, then reset.
      for (const guide of [...resettable, ...resettable]) {
        const result = await run(process.execPath, ['--import', 'tsx', snippetFile(guide)], env, signal);
        expect(result.code, `${guide.name}.md after a reset:\n${result.stdout}${result.stderr}`).toBe(0);
        const reset = await tare.cli(['demo', '--reset', '--yes']);
        expect(reset.code, reset.stderr).toBe(0);
      }
    },
    4 * TEST_TIMEOUT_MS,
  );

  it(
    'the quick start’s ts blocks, pasted into one file as its section 4 says, run against a fresh demo shop',
    async ({ signal, onTestFinished }) => {
      // As a reader makes first-calls.ts: the blocks one after the other, nothing between them.
      const quickStart = guides.find((g) => g.name === 'quick-start')!;
      const file = join(SNIPPETS_DIR, 'first-calls.ts');
      const code = quickStart.blocks.filter((b) => b.info === 'ts').map((b) => b.code.join('\n'));
      expect(code.length).toBeGreaterThan(3);
      await writeFile(file, `${code.join('\n\n')}\n`);
      const tare = await startTare('pglite', { fromTemplate: true, signal });
      onTestFinished(() => tare.dispose());
      // Only what section 1 has the reader export: the address and the key.
      const env = readerEnv({ TARE_URL: tare.url, TARE_API_KEY: tare.apiKey });
      const result = await run(process.execPath, ['--import', 'tsx', file], env, signal);
      expect(result.code, `first-calls.ts failed:\n${result.stdout}${result.stderr}`).toBe(0);
      expect(result.stdout, 'it prints nothing when all is well').toBe('');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the ts blocks type-check',
    async ({ signal }) => {
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      const args = [tsc, '-p', join(SNIPPETS_DIR, 'tsconfig.json')];
      const result = await run(process.execPath, args, process.env, signal);
      expect(result.code, `line numbers are those of docs/guides/<guide>.md:\n${result.stdout}${result.stderr}`).toBe(
        0,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it('the errors guide lists every error code with its status and the client error it becomes', async () => {
    const errors = guides.find((g) => g.name === 'errors')!;
    const rows = [...errors.markdown.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`\s*\|.*\|\s*`(\w+)`\s*\|\s*$/gm)].map(
      (m) => ({ status: Number(m[1]), code: m[2]!, errorClass: m[3]! }),
    );
    expect(Object.fromEntries(rows.map((r) => [r.code, r.status]))).toEqual(ERROR_STATUS);
    expect(rows).toHaveLength(Object.keys(ERROR_STATUS).length);
    for (const { status, code, errorClass } of rows) {
      const body = {
        success: false,
        data: null,
        error: { code, message: code, details: null },
        meta: {},
        requestId: 'req_1',
      };
      const client = new TareClient({
        apiKey: 'apik_test',
        baseUrl: 'http://tare.invalid',
        maxRetries: 0,
        fetch: async () => Response.json(body, { status }),
      });
      const error = await client.settings.get().catch((e: unknown) => e);
      expect(error, code).toBeInstanceOf(TareError);
      expect({ class: (error as TareError).constructor.name, code: (error as TareError).code }, code).toEqual({
        class: errorClass,
        code,
      });
    }
  });
});
