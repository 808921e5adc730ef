// Bundles the server and CLI into dist/ so `tare` starts without compiling TypeScript at run
// time (tsx costs ~1.5 s of start-up and ~25 MB). npm dependencies stay external; our own
// workspace packages are bundled. Dynamic imports become chunks, so unused drivers stay unloaded.
import { cp, readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
const contracts = JSON.parse(await readFile(new URL('../contracts/package.json', root), 'utf8'));
const external = [...Object.keys(pkg.dependencies), ...Object.keys(contracts.dependencies ?? {})].filter(
  (name) => !name.startsWith('@tare/'),
);

await rm(new URL('dist/', root), { recursive: true, force: true });
await build({
  absWorkingDir: new URL('.', root).pathname,
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
});
// migrate.ts finds its SQL files next to itself: beside the bundle once built.
await cp(new URL('src/store/migrations/', root), new URL('dist/migrations/', root), { recursive: true });
