import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, symlink, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SLOW = 90_000;

function run(bin: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { timeout: SLOW - 10_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** bin/tare.js in a copy of the server and contracts packages (and the function it bundles), so that dist/ is this test's own. */
describe('bin/tare.js', () => {
  let root: string;
  let bin: string;
  let bundle: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tare-bin-'));
    for (const path of ['bin', 'scripts', 'src', 'package.json']) {
      await cp(join(REPO_ROOT, 'packages/server', path), join(root, 'packages/server', path), { recursive: true });
    }
    for (const path of ['src', 'package.json']) {
      await cp(join(REPO_ROOT, 'packages/contracts', path), join(root, 'packages/contracts', path), {
        recursive: true,
      });
    }
    await cp(join(REPO_ROOT, 'extensions/cart-transform/src'), join(root, 'extensions/cart-transform/src'), {
      recursive: true,
    });
    await symlink(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    bin = join(root, 'packages/server/bin/tare.js');
    bundle = join(root, 'packages/server/dist/tare.js');
  });

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it(
    'when there is no bundle or a source is newer, then it builds the bundle and runs that',
    async () => {
      const { version } = JSON.parse(await readFile(join(root, 'packages/server/package.json'), 'utf8'));
      expect(existsSync(bundle)).toBe(false);

      expect(await run(bin, ['--version'])).toEqual({ code: 0, stdout: `tare ${version}\n`, stderr: '' });
      expect(existsSync(bundle)).toBe(true);
      expect(readdirSync(join(root, 'packages/server/dist/migrations'))).toEqual(
        readdirSync(join(root, 'packages/server/src/store/migrations')).filter((name) => name.endsWith('.sql')),
      );

      // A source saved after that build (a `git pull`, an edit): the next run rebuilds first.
      const saved = new Date(statSync(bundle).mtimeMs + 60_000);
      await utimes(join(root, 'packages/server/src/config.ts'), saved, saved);
      expect(await run(bin, ['--version'])).toEqual({ code: 0, stdout: `tare ${version}\n`, stderr: '' });
      // Whole milliseconds: a file system keeps nanoseconds, and mtimeMs can read 473.999 for 474.
      expect(Math.round(statSync(bundle).mtimeMs)).toBeGreaterThanOrEqual(saved.getTime());

      // The checkout function is bundled too (tare shopify run-function): its sources count.
      const functionSaved = new Date(statSync(bundle).mtimeMs + 60_000);
      await utimes(join(root, 'extensions/cart-transform/src/cart_transform_run.ts'), functionSaved, functionSaved);
      expect(await run(bin, ['--version'])).toEqual({ code: 0, stdout: `tare ${version}\n`, stderr: '' });
      expect(Math.round(statSync(bundle).mtimeMs)).toBeGreaterThanOrEqual(functionSaved.getTime());
    },
    SLOW,
  );
});
