// The PGlite seed: a cluster initdb made once at build time, so that a new data dir is a copy
// of it instead of an initdb of its own (which peaks near 800 MB of RSS; loading the copy stays
// under 400 MB). `npm run build` runs this in a child process: the build survives a machine too
// small for initdb (the store then falls back to initdb, as before). Writes into DIR (dist/):
//   pglite-seed.tar.gz  the data dir after a clean shutdown, PG_VERSION its last entry
//   pglite-seed.json    {"pglite": "<exact version of @electric-sql/pglite it was made by>"}
// Usage: node scripts/pglite-seed.mjs DIR   (does nothing when DIR already holds a current seed)
import { mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const SEED_FILE = 'pglite-seed.tar.gz';
export const STAMP_FILE = 'pglite-seed.json';

/** The installed @electric-sql/pglite's exact version (its package.json is not exported). */
export async function pgliteVersion() {
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pkg = JSON.parse(await readFile(join(dirname(main), '..', 'package.json'), 'utf8'));
  return String(pkg.version);
}

/** Writes the seed into `dir` unless a seed stamped with the installed PGlite is there. */
export async function ensureSeed(dir) {
  const version = await pgliteVersion();
  const current = await readFile(join(dir, STAMP_FILE), 'utf8')
    .then((text) => JSON.parse(text).pglite === version)
    .catch(() => false);
  if (current && (await stat(join(dir, SEED_FILE)).catch(() => undefined))) return false;
  const { PGlite } = await import('@electric-sql/pglite');
  const work = await mkdtemp(join(tmpdir(), 'tare-pglite-seed-'));
  try {
    const cluster = join(work, 'pgdata');
    // initdb, then a clean shutdown: the copy starts without crash recovery.
    await (await PGlite.create({ dataDir: cluster })).close();
    const tar = await tarOf(cluster);
    // Stamp last, each file renamed into place whole: a stamp always names a complete seed.
    await rm(join(dir, STAMP_FILE), { force: true });
    await put(join(dir, SEED_FILE), gzipSync(tar, { level: 9 }));
    await put(join(dir, STAMP_FILE), JSON.stringify({ pglite: version }) + '\n');
    return true;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function put(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
}

/**
 * A ustar archive of `root`: directories before what they hold, names sorted, PG_VERSION last
 * (the store treats a data dir with PG_VERSION as complete, so it is written last).
 */
async function tarOf(root) {
  const entries = [];
  const walk = async (relative) => {
    for (const name of (await readdir(join(root, relative))).sort()) {
      const path = relative ? `${relative}/${name}` : name;
      const info = await stat(join(root, path));
      if (info.isDirectory()) {
        entries.push({ path: `${path}/`, dir: true });
        await walk(path);
      } else if (path !== 'PG_VERSION') {
        entries.push({ path, data: await readFile(join(root, path)) });
      }
    }
  };
  await walk('');
  entries.push({ path: 'PG_VERSION', data: await readFile(join(root, 'PG_VERSION')) });
  const blocks = [];
  for (const entry of entries) {
    const size = entry.dir ? 0 : entry.data.length;
    blocks.push(header(entry.path, size, entry.dir));
    if (!entry.dir) blocks.push(entry.data, Buffer.alloc((512 - (size % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

function header(name, size, dir) {
  if (Buffer.byteLength(name) > 99) throw new Error(`name too long for a ustar header: ${name}`);
  const block = Buffer.alloc(512);
  const octal = (value, offset, length) => block.write(value.toString(8).padStart(length - 1, '0'), offset, 'ascii');
  block.write(name, 0, 'utf8');
  octal(dir ? 0o700 : 0o600, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(0, 136, 12); // mtime: 0, so the same cluster makes the same bytes
  block[156] = dir ? 0x35 : 0x30;
  block.write('ustar\u000000', 257, 'ascii');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'ascii');
  return block;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node scripts/pglite-seed.mjs DIR');
  const started = performance.now();
  if (await ensureSeed(dir))
    console.log(
      `PGlite seed written to ${join(dir, SEED_FILE)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
}
