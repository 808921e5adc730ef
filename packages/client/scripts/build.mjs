// Builds the publishable package into dist/, for ES module and CommonJS consumers alike (as
// stripe-node ships): our own workspace code bundled in (so the package has no runtime
// dependencies and runs in Node 20+ and browsers), once as an ES module (index.js) and once as
// CommonJS (cjs/index.js, under a package.json of its own that says "commonjs"), each with its
// type declarations, and a package.json whose `exports` send `import` to the first and
// `require` to the second. The CommonJS declarations are the same files: what makes TypeScript
// read them as CommonJS is the "commonjs" package.json beside them. Inside the workspace the
// package keeps resolving to src/ (see ../package.json); `npm pack packages/client/dist` makes
// the tarball an integrator installs.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const dist = new URL('dist/', root);
const cjs = new URL('cjs/', dist);
const source = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

await rm(dist, { recursive: true, force: true });
// The client, and <tare-measure-picker> as an entry point of its own (`@tare/client/picker`).
const entryPoints = { index: 'src/index.ts', picker: 'src/picker/index.ts' };
const bundle = { absWorkingDir: root.pathname, entryPoints, bundle: true, target: 'es2022' };
const options = { sourcemap: true, logLevel: 'warning' };
await build({ ...bundle, ...options, outdir: 'dist', format: 'esm', platform: 'neutral' });
await build({ ...bundle, ...options, outdir: 'dist/cjs', format: 'cjs', platform: 'neutral' });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', new URL('tsconfig.build.json', root).pathname], { stdio: 'inherit' });
for (const file of await readdir(dist, { recursive: true })) {
  if (!file.endsWith('.d.ts') || file.startsWith('cjs/')) continue;
  await mkdir(new URL('.', new URL(file, cjs)), { recursive: true });
  await copyFile(new URL(file, dist), new URL(file, cjs));
}
await writeFile(new URL('package.json', cjs), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

const { private: _private, exports: _exports, scripts: _scripts, devDependencies: _dev, ...published } = source;
const manifest = {
  ...published,
  exports: {
    '.': {
      import: { types: './index.d.ts', default: './index.js' },
      require: { types: './cjs/index.d.ts', default: './cjs/index.js' },
    },
    './picker': {
      import: { types: './picker/index.d.ts', default: './picker.js' },
      require: { types: './cjs/picker/index.d.ts', default: './cjs/picker.js' },
    },
    './package.json': './package.json',
  },
  main: './cjs/index.js',
  module: './index.js',
  types: './index.d.ts',
  sideEffects: false,
};
await writeFile(new URL('package.json', dist), `${JSON.stringify(manifest, null, 2)}\n`);
await copyFile(new URL('README.md', root), new URL('README.md', dist));
