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
 * Other blocks (`console`, `json`, `text`, `http`) are shown, never run. The `ts` blocks are also
 * type-checked as an integrator's strict project would.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { TareClient, TareError } from '@tare/client';
import { ERROR_STATUS } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startTare } from './support/tare-process.js';

const GUIDES_DIR = join(REPO_ROOT, 'docs/guides');
const SNIPPETS_DIR = join(REPO_ROOT, 'examples/.snippets');
const RUN_TIMEOUT_MS = 120_000;
const SHOWN_OR_RUN = ['ts', 'sh', 'console', 'text', 'json', 'http'];

interface Block {
  info: string;
  /** 1-based line of the opening fence. */
  fenceLine: number;
  code: string[];
}

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

/** Fenced code blocks (``` or ~~~, up to 3 spaces of indent) with their info string and lines. */
function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let open: { block: Block; fence: string; indent: number } | undefined;
  lines.forEach((line, index) => {
    if (!open) {
      const m = /^( {0,3})(`{3,}|~{3,})\s*(.*)$/.exec(line);
      if (m) {
        const block = { info: m[3]!.trim(), fenceLine: index + 1, code: [] };
        open = { block, fence: m[2]!, indent: m[1]!.length };
        blocks.push(block);
      }
      return;
    }
    const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (close && close[1]![0] === open.fence[0] && close[1]!.length >= open.fence.length) {
      open = undefined;
      return;
    }
    open.block.code.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)));
  });
  if (open) throw new Error(`unclosed code fence at line ${open.block.fenceLine}`);
  return blocks;
}

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
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd: REPO_ROOT, env, timeout: RUN_TIMEOUT_MS, maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** The reader's environment: theirs, minus what would point Tare's CLI at another store. */
function readerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'TARE_DATA_DIR', 'PORT', 'HOST', 'REDIS_URL', 'NODE_OPTIONS']) delete env[name];
  return { ...env, ...extra };
}

beforeAll(async () => {
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
});

afterAll(async () => {
  await rm(SNIPPETS_DIR, { recursive: true, force: true });
});

describe.concurrent('docs/guides', () => {
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

  for (const guide of guides) {
    it(
      `${guide.name}.md runs against a fresh demo shop`,
      async () => {
        const tare = await startTare();
        try {
          const env = readerEnv({ TARE_URL: tare.url, TARE_API_KEY: tare.apiKey, ...tare.storeEnv });
          const result = await run(process.execPath, ['--import', 'tsx', snippetFile(guide)], env);
          const where = `docs/guides/${guide.name}.md (run as ${relative(REPO_ROOT, snippetFile(guide))}, same line numbers)`;
          expect(result.code, `${where} failed:\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0);
        } finally {
          await tare.dispose();
        }
      },
      RUN_TIMEOUT_MS,
    );
  }

  it(
    'the ts blocks type-check',
    async () => {
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      const result = await run(process.execPath, [tsc, '-p', join(SNIPPETS_DIR, 'tsconfig.json')], process.env);
      expect(result.code, `line numbers are those of docs/guides/<guide>.md:\n${result.stdout}${result.stderr}`).toBe(
        0,
      );
    },
    RUN_TIMEOUT_MS,
  );

  it('every relative link in the guides and in the README points at an existing file and heading', () => {
    const readme = join(REPO_ROOT, 'README.md');
    const index = join(GUIDES_DIR, 'README.md');
    const sources = [...guides.map((g) => g.path), index, readme];
    const broken: string[] = [];
    for (const source of sources) {
      for (const { target, line } of relativeLinks(readFileSync(source, 'utf8'))) {
        const [file = '', anchor] = target.split('#');
        const path = file ? resolve(dirname(source), decodeURI(file)) : source;
        const at = `${relative(REPO_ROOT, source)}:${line} → ${target}`;
        if (!existsSync(path)) broken.push(`${at}: no such file`);
        else if (anchor && path.endsWith('.md') && !headingSlugs(readFileSync(path, 'utf8')).has(anchor)) {
          broken.push(`${at}: no heading #${anchor}`);
        } else if (anchor === undefined && file.endsWith('/') && !statSync(path).isDirectory()) {
          broken.push(`${at}: not a directory`);
        }
      }
    }
    expect(broken).toEqual([]);
    // Every guide is reachable from the README and from the guides' index.
    const linked = (source: string) =>
      new Set(
        relativeLinks(readFileSync(source, 'utf8')).map((l) => resolve(dirname(source), l.target.split('#')[0]!)),
      );
    for (const guide of guides) {
      expect(linked(readme).has(guide.path), `README.md links to ${guide.name}.md`).toBe(true);
      expect(linked(index).has(guide.path), `docs/guides/README.md links to ${guide.name}.md`).toBe(true);
    }
  });

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

/** `[text](target)` links outside code, except absolute URLs and mail links. */
function relativeLinks(markdown: string): Array<{ target: string; line: number }> {
  const links: Array<{ target: string; line: number }> = [];
  const inCode = new Set(fencedBlocks(markdown).flatMap((b) => b.code.map((_, i) => b.fenceLine + i + 1)));
  markdown.split('\n').forEach((text, index) => {
    if (inCode.has(index + 1)) return;
    const prose = text.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ target, line: index + 1 });
    }
  });
  return links;
}

/** GitHub's anchors for a document's headings. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const inCode = new Set(fencedBlocks(markdown).flatMap((b) => b.code.map((_, i) => b.fenceLine + i + 1)));
  const seen = new Map<string, number>();
  markdown.split('\n').forEach((text, index) => {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!m || inCode.has(index + 1)) return;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  });
  return slugs;
}
