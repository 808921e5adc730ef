// Builds the publishable package into dist/: one ES module with our own workspace code bundled
// in (so the package has no runtime dependencies and runs in Node 20+ and browsers), the type
// declarations, and a package.json whose exports point at them. Inside the workspace the
// package keeps resolving to src/ (see ../package.json); `npm pack packages/client/dist` makes
// the tarball an integrator installs.
import { execFileSync } from 'node:child_process';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const dist = new URL('dist/', root);
const source = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

await rm(dist, { recursive: true, force: true });
await build({
  absWorkingDir: root.pathname,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
});

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', new URL('tsconfig.build.json', root).pathname], { stdio: 'inherit' });

const { private: _private, exports: _exports, scripts: _scripts, devDependencies: _dev, ...published } = source;
const manifest = {
  ...published,
  exports: { '.': { types: './index.d.ts', import: './index.js' } },
  types: './index.d.ts',
  sideEffects: false,
};
await writeFile(new URL('package.json', dist), `${JSON.stringify(manifest, null, 2)}\n`);
await copyFile(new URL('README.md', root), new URL('README.md', dist));
