import { createReadStream, existsSync } from 'node:fs';
import { type FileHandle, mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip, gunzipSync } from 'node:zlib';

/**
 * The seed cluster `npm run build` makes (scripts/pglite-seed.mjs): a new data dir is a copy of
 * it, not an initdb of its own, which peaks near 800 MB of RSS (a 512 MB container would not
 * survive its first start). It sits beside the bundle; run from the sources, in the bundle's dir.
 */
const SEED_DIRS = [new URL('./', import.meta.url), new URL('../../dist/', import.meta.url)].map((url) =>
  fileURLToPath(url),
);
const SEED_FILE = 'pglite-seed.tar.gz';
const STAMP_FILE = 'pglite-seed.json';

export type SeedLookup = { path: string } | { missing: string };

/**
 * The seed in the first of `dirs` that holds one, if it was made by the installed PGlite (a
 * cluster is only good for the PostgreSQL build that made it); else why there is none.
 */
export async function findSeed(dirs: readonly string[] = SEED_DIRS): Promise<SeedLookup> {
  const installed = await pgliteVersion();
  for (const dir of dirs) {
    const path = join(dir, SEED_FILE);
    if (!existsSync(path)) continue;
    const stamp = await readFile(join(dir, STAMP_FILE), 'utf8')
      .then((text) => (JSON.parse(text) as { pglite?: unknown }).pglite)
      .catch(() => undefined);
    if (stamp === installed) return { path };
    return { missing: `${path} was made by PGlite ${String(stamp ?? '(no stamp)')}, ${installed} is installed` };
  }
  return { missing: `no ${SEED_FILE} in ${dirs.join(' or ')} (npm run build makes it)` };
}

/** The seed as an uncompressed tarball, for PGlite's `loadDataDir` (an in-memory store). */
export async function seedTarball(path: string): Promise<Uint8Array<ArrayBuffer>> {
  const tar = gunzipSync(await readFile(path));
  return new Uint8Array(tar.buffer, tar.byteOffset, tar.byteLength);
}

/** A data dir with PG_VERSION holds a cluster (PostgreSQL's own test, and PGlite's). */
export function holdsCluster(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/**
 * Copies the seed into `dataDir`, streamed (the tarball is 40 MB, gzip 4.5 MB), PG_VERSION last
 * and renamed into place: a copy cut short (kill -9) has no PG_VERSION, so the next start copies
 * the seed again over it. Not fsynced: PGlite on Node never fsyncs its own writes either (its
 * file system has no fsync), so the store survives a process crash, not a power loss, and
 * flushing the copy would add 1-5 s to a first start for nothing the store keeps afterwards.
 */
export async function extractSeed(path: string, dataDir: string): Promise<void> {
  const root = resolve(dataDir);
  await mkdir(root, { recursive: true });
  let pending: Buffer = Buffer.alloc(0);
  let file: { handle: FileHandle; left: number; pad: number } | undefined;
  let skip = 0;
  let version: Buffer | undefined;
  let collecting: { chunks: Buffer[]; left: number; pad: number } | undefined;
  let opened: FileHandle | undefined;
  const finish = async (handle: FileHandle) => {
    opened = undefined;
    await handle.close();
  };

  const target = (name: string) => {
    const full = resolve(root, name);
    if (!full.startsWith(root + sep)) throw new Error(`seed entry outside the data dir: ${name}`);
    return full;
  };
  try {
    for await (const chunk of createReadStream(path).pipe(createGunzip()) as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length) {
        if (skip) {
          const n = Math.min(skip, pending.length);
          skip -= n;
          pending = pending.subarray(n);
        } else if (file) {
          const n = Math.min(file.left, pending.length);
          await file.handle.write(pending.subarray(0, n));
          file.left -= n;
          pending = pending.subarray(n);
          if (file.left === 0) {
            skip = file.pad;
            await finish(file.handle);
            file = undefined;
          }
        } else if (collecting) {
          const n = Math.min(collecting.left, pending.length);
          collecting.chunks.push(Buffer.from(pending.subarray(0, n)));
          collecting.left -= n;
          pending = pending.subarray(n);
          if (collecting.left === 0) {
            version = Buffer.concat(collecting.chunks);
            skip = collecting.pad;
            collecting = undefined;
          }
        } else {
          if (pending.length < 512) break;
          const header = pending.subarray(0, 512);
          pending = pending.subarray(512);
          if (header.every((byte) => byte === 0)) continue; // the end-of-archive blocks
          const name = text(header, 0, 100);
          const size = parseInt(text(header, 124, 12) || '0', 8);
          const pad = (512 - (size % 512)) % 512;
          const type = String.fromCharCode(header[156]!);
          if (type === '5') {
            await mkdir(target(name), { recursive: true, mode: 0o700 });
          } else if (type !== '0' && type !== '\0') {
            throw new Error(`unexpected entry in the PGlite seed: ${name} (type ${type})`);
          } else if (name === 'PG_VERSION') {
            if (size === 0) version = Buffer.alloc(0);
            else collecting = { chunks: [], left: size, pad };
          } else {
            const handle = await open(target(name), 'w', 0o600);
            opened = handle;
            file = { handle, left: size, pad };
            if (size === 0) {
              skip = pad;
              await finish(handle);
              file = undefined;
            }
          }
        }
      }
    }
    if (!version) throw new Error(`the PGlite seed ${path} has no PG_VERSION`);
    const temporary = join(root, `PG_VERSION.${process.pid}.tmp`);
    await writeFile(temporary, version, { mode: 0o600 });
    await rename(temporary, join(root, 'PG_VERSION'));
  } finally {
    await opened?.close().catch(() => {});
  }
}

function text(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.toString('utf8', 0, end === -1 ? length : end).trim();
}

/** The installed @electric-sql/pglite's exact version (its package.json is not exported). */
async function pgliteVersion(): Promise<string> {
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pkg = JSON.parse(await readFile(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
