// Bundles the server and CLI into dist/ so `tare` starts without compiling TypeScript at run
// time (tsx costs ~2 s of CPU per command and ~25 MB). npm dependencies stay external; our own
// workspace packages are bundled. Dynamic imports become chunks, so unused code stays unloaded.
import { cp, mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const dist = new URL('dist/', root);
const entry = new URL('tare.js', dist).pathname;

/**
 * Writes dist/. `clean` starts from an empty dist/ (npm run build). Otherwise (bin/tare.js
 * found sources newer than the bundle) files are replaced one by one, each written whole and
 * renamed into place, the entry last: a `tare` starting meanwhile loads the old bundle or the
 * new one, and chunks an older running bundle still imports stay. `stamp` becomes the entry's
 * mtime: the newest source time the build saw, so a file saved during the build is newer.
 */
export async function bundle({ clean = false, stamp } = {}) {
  if (clean) {
    // The PGlite seed stays: build.mjs makes it again only for another PGlite (it takes an initdb).
    for (const name of await readdir(dist).catch(() => [])) {
      if (!name.startsWith('pglite-seed.')) await rm(new URL(name, dist), { recursive: true, force: true });
    }
  }
  const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
  const contracts = JSON.parse(await readFile(new URL('../contracts/package.json', root), 'utf8'));
  const external = [...Object.keys(pkg.dependencies), ...Object.keys(contracts.dependencies ?? {})].filter(
    (name) => !name.startsWith('@tare/'),
  );
  const result = await build({
    absWorkingDir: root.pathname,
    entryPoints: { tare: 'src/cli/main.ts' },
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    external,
    logLevel: 'warning',
    write: false,
  });
  // migrate.ts finds its SQL files next to itself: beside the bundle once built.
  const migrations = new URL('src/store/migrations/', root);
  const sql = (await readdir(migrations)).filter((name) => name.endsWith('.sql'));
  for (const name of sql)
    await put(new URL(`migrations/${name}`, dist).pathname, await readFile(new URL(name, migrations)));
  for (const name of await readdir(new URL('migrations/', dist))) {
    if (!sql.includes(name)) await rm(new URL(`migrations/${name}`, dist), { force: true });
  }
  // PGlite's worker thread is started from its file, found beside the module that starts it.
  await put(new URL('pglite-worker.mjs', dist).pathname, await readFile(new URL('src/store/pglite-worker.mjs', root)));
  // The admin's templates and assets sit in web/ beside the module that reads them: beside the bundle.
  await cp(new URL('src/admin/web/', root), new URL('web/', dist), { recursive: true, force: true });
  // So do the sandbox storefront's views and styles.
  await cp(new URL('src/http/routes/storefront/storefront-web/', root), new URL('storefront-web/', dist), {
    recursive: true,
    force: true,
  });
  const last = (file) => (file.path === entry ? 2 : file.path === `${entry}.map` ? 1 : 0);
  for (const file of [...result.outputFiles].sort((a, b) => last(a) - last(b))) await put(file.path, file.contents);
  // Rounded up: file times are finer than the milliseconds a Date holds.
  if (stamp) await utimes(entry, new Date(), new Date(Math.ceil(stamp)));
}

async function put(path, contents) {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
}
