/**
 * The documentation stands alone in a clone of the repository: every link resolves to a file
 * (and heading) in it, nothing points at the product owner's documents (`shared/`, which a clone
 * does not have), and the import format's complete sample is valid and imports.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../packages/server/src/store/db.js';
import { createLocalGateway } from '../../packages/server/src/platform/local/local-gateway.js';
import { createKeyring } from '../../packages/server/src/secrets/keyring.js';
import { SecretKey } from '../../packages/server/src/secrets/secret-key.js';
import { ImportDocument } from '../../packages/server/src/services/catalog-import/import-document.js';
import { importCatalog } from '../../packages/server/src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../packages/server/src/services/catalog-import/validate-import.js';
import { testDrivers } from '../../packages/server/test/support/databases.js';
import { fencedBlocks, headingSlugs, isAbsoluteUrl, links } from './support/markdown.js';
import { REPO_ROOT } from './support/tare-process.js';

/** README.md, docs/**, packages/<name>/README.md, examples/README.md and bench/README.md. */
function documents(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  const packages = readdirSync(join(REPO_ROOT, 'packages')).map((name) =>
    join(REPO_ROOT, 'packages', name, 'README.md'),
  );
  return [
    join(REPO_ROOT, 'README.md'),
    ...walk(join(REPO_ROOT, 'docs')),
    ...packages,
    join(REPO_ROOT, 'examples/README.md'),
    join(REPO_ROOT, 'bench/README.md'),
  ].filter((path) => existsSync(path));
}

const at = (source: string, line: number) => `${relative(REPO_ROOT, source)}:${line}`;

describe('the documentation in a clone of the repository', () => {
  const docs = documents();

  it('covers the README, the docs, the packages and the examples', () => {
    const names = docs.map((path) => relative(REPO_ROOT, path));
    expect(names).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/api.md',
        'docs/operations.md',
        'docs/import-format.md',
        'docs/guides/README.md',
        'packages/client/README.md',
        'examples/README.md',
      ]),
    );
  });

  it('when a doc links somewhere, then the target is a file (and heading) in the repository', () => {
    const broken: string[] = [];
    for (const source of docs) {
      for (const { target, line } of links(readFileSync(source, 'utf8'))) {
        const where = `${at(source, line)} → ${target}`;
        if (isAbsoluteUrl(target)) {
          broken.push(`${where}: leaves the repository (there is no public address for it to link to)`);
          continue;
        }
        const [file = '', anchor] = target.split('#');
        const path = file ? resolve(dirname(source), decodeURI(file)) : source;
        if (path !== REPO_ROOT && !path.startsWith(REPO_ROOT)) broken.push(`${where}: outside the repository`);
        else if (relative(REPO_ROOT, path).split(sep)[0] === 'shared')
          broken.push(`${where}: shared/ is not in a clone`);
        else if (!existsSync(path)) broken.push(`${where}: no such file`);
        else if (anchor && path.endsWith('.md') && !headingSlugs(readFileSync(path, 'utf8')).has(anchor)) {
          broken.push(`${where}: no heading #${anchor}`);
        } else if (anchor === undefined && file.endsWith('/') && !statSync(path).isDirectory()) {
          broken.push(`${where}: not a directory`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('when a doc refers to a document, then it is one the repository has (not shared/, PRODUCT.md or the spec)', () => {
    const mentions: string[] = [];
    for (const source of docs) {
      readFileSync(source, 'utf8')
        .split('\n')
        .forEach((text, index) => {
          const m = /(?<![\w/.-])shared\/|\bPRODUCT\.md\b|\bpublic-api\.md\b/.exec(text);
          if (m) mentions.push(`${at(source, index + 1)}: ${m[0]}`);
        });
    }
    expect(mentions).toEqual([]);
  });

  it('when the client README is packed, then it links to nothing outside the package', () => {
    const readme = join(REPO_ROOT, 'packages/client/README.md');
    const outside = links(readFileSync(readme, 'utf8'))
      .filter(({ target }) => !target.startsWith('#'))
      .map(({ target, line }) => `${at(readme, line)} → ${target}`);
    // The tarball holds the README, package.json and the build; a link to any of them would be
    // checked on the packed package by packages/client/test/package.test.ts.
    expect(outside).toEqual([]);
  });

  it('when a guide exists, then the README and the guides index link to it', () => {
    const readme = join(REPO_ROOT, 'README.md');
    const index = join(REPO_ROOT, 'docs/guides/README.md');
    const linked = (source: string) =>
      new Set(links(readFileSync(source, 'utf8')).map((l) => resolve(dirname(source), l.target.split('#')[0]!)));
    const guides = readdirSync(join(REPO_ROOT, 'docs/guides'))
      .filter((file) => file.endsWith('.md') && file !== 'README.md')
      .map((file) => join(REPO_ROOT, 'docs/guides', file));
    for (const guide of guides) {
      expect(linked(readme).has(guide), `README.md links to ${relative(REPO_ROOT, guide)}`).toBe(true);
      expect(linked(index).has(guide), `docs/guides/README.md links to ${relative(REPO_ROOT, guide)}`).toBe(true);
    }
  });
});

describe('docs/import-format.md', () => {
  const path = join(REPO_ROOT, 'docs/import-format.md');
  const sample = () => {
    const block = fencedBlocks(readFileSync(path, 'utf8')).find((b) => b.info === 'json');
    if (!block) throw new Error(`${path} has no json block`);
    return JSON.parse(block.code.join('\n')) as unknown;
  };
  let db: Db;

  beforeAll(async () => {
    db = await testDrivers()[0]!.create();
  }, 120_000);

  afterAll(async () => {
    await db?.close();
  });

  it('when the sample is checked, then it is valid', () => {
    const checked = validateImport(sample());
    expect(checked.ok ? [] : checked.issues).toEqual([]);
  });

  it('when the sample is compared with what the importer accepts, then it holds every field', () => {
    const schema = ImportDocument as unknown as Schema; // read as the JSON schema it is
    const accepted = fieldsOf(schema);
    const shown = fieldsIn(schema, sample());
    expect(accepted.filter((field) => !shown.has(field))).toEqual([]);
  });

  it('when the sample is imported twice, then the first import writes it and the second changes nothing', async () => {
    const checked = validateImport(sample());
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    const deps = { db, gateway: createLocalGateway(), keyring: createKeyring({ current: SecretKey.generate() }) };
    const first = await importCatalog(deps, checked.value);
    expect(first.shops).toEqual([
      { domain: 'fresh-produce.example', id: expect.any(String), changes: expect.any(Number) },
      { domain: 'fresh-produce-online.example', id: expect.any(String), changes: expect.any(Number) },
    ]);
    expect(first.shops.map((shop) => shop.changes > 0)).toEqual([true, true]);
    const again = await importCatalog(deps, checked.value);
    expect(again.shops.map((shop) => shop.changes)).toEqual([0, 0]);
    const { rows } = await db.query<{ total: string; unit: string }>(
      `SELECT l.total::text AS total, l.unit FROM inventory_levels l JOIN shops s ON s.id = l.shop_id
       WHERE s.domain = 'fresh-produce.example' AND l.variant_id = '2002' AND l.location_id = '70001'`,
    );
    expect(rows.map((r) => [Number(r.total), r.unit])).toEqual([[1250, 'g']]); // 1.25 kg, kept per 100 g
  });
});

/** A JSON schema (TypeBox) as far as the import document uses it. */
interface Schema {
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
}

/** Every field path the schema accepts: `shops[].products[].variants[].price`, `*` for any key. */
function fieldsOf(schema: Schema, path = ''): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const field = path ? `${path}.${key}` : key;
    out.push(field, ...fieldsOf(child, field));
  }
  for (const child of Object.values(schema.patternProperties ?? {})) out.push(...fieldsOf(child, `${path}.*`));
  if (schema.items) out.push(...fieldsOf(schema.items, `${path}[]`));
  for (const alternative of schema.anyOf ?? []) out.push(...fieldsOf(alternative, path));
  return [...new Set(out)];
}

/** The field paths (as fieldsOf names them) that a value following the schema holds. */
function fieldsIn(schema: Schema, value: unknown, path = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) fieldsIn(schema.items, item, `${path}[]`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const named = schema.properties?.[key];
      if (named) {
        const field = path ? `${path}.${key}` : key;
        out.add(field);
        fieldsIn(named, child, field, out);
      }
      for (const any of Object.values(schema.patternProperties ?? {})) fieldsIn(any, child, `${path}.*`, out);
    }
  }
  for (const alternative of schema.anyOf ?? []) fieldsIn(alternative, value, path, out);
  return out;
}
