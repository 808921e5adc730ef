// `npm run build` (and `npm install`, through the root prepare script): a clean dist/, and the
// PGlite seed cluster beside it (scripts/pglite-seed.mjs) unless the one there fits the installed
// PGlite. The seed is made in a child process: where initdb cannot run (it peaks near 800 MB), the
// build still succeeds and a new store runs initdb itself, as it did before the seed.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

await bundle({ clean: true });
const seed = spawnSync(
  process.execPath,
  [fileURLToPath(new URL('pglite-seed.mjs', import.meta.url)), fileURLToPath(new URL('../dist/', import.meta.url))],
  { stdio: 'inherit' },
);
if (seed.status !== 0) {
  console.warn(
    `warning: the PGlite seed was not made (${seed.error?.message ?? seed.signal ?? `exit code ${seed.status}`}); ` +
      'a new PGlite data dir will run initdb, which peaks near 800 MB of memory',
  );
}
