import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import { openPglite } from '../../src/store/pglite-driver.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SLOW = 60_000;

function tare(args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TARE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['packages/server/bin/tare.js', ...args],
      { cwd: REPO_ROOT, env, timeout: SLOW - 10_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => resolve({ code: error ? ((error.code as number) ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('tare reconcile', () => {
  let dir: string;
  let dataDir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tare-reconcile-'));
    dataDir = join(dir, 'data');
    expect((await tare(['demo'], dataDir)).code).toBe(0);
  }, SLOW);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'when the platform shows what Tare projects, then it reports no drift; when it does not, it names the level, and --fix follows it',
    async () => {
      // The demo's 11 levels: one per stocked variant, the Comté wheel's three variants each compared.
      const clean = await tare(['reconcile'], dataDir);
      expect(clean).toMatchObject({ code: 0, stderr: '' });
      expect(clean.stdout).toBe(`${DEMO_SHOP}: 11 levels, 0 drifting\n`);

      // The merchant typed 30 for the coffee on the platform, and the event never arrived.
      const db = await openPglite({ dataDir });
      await db.query(`UPDATE local_platform_levels SET available = 30 WHERE variant_id = '2001'`);
      await db.close();

      const report = await tare(['reconcile', '--shop', DEMO_SHOP], dataDir);
      expect(report.code).toBe(0);
      expect(report.stdout).toMatch(
        /^demo-shop\.example: 11 levels, 1 drifting\n {2}variant 2001 at 70001: platform shows 30, Tare projects 12 \(since \d{4}-\d\d-\d\dT[\d:.]+Z\)\n {2}run `tare reconcile --fix`/,
      );
      const json = JSON.parse((await tare(['reconcile', '--json'], dataDir)).stdout);
      expect(json[0].drift).toEqual([
        { variantId: '2001', locationId: '70001', platform: 30, expected: 12, since: expect.any(String) },
      ]);

      const fixed = await tare(['reconcile', '--fix'], dataDir);
      expect(fixed.stdout).toContain('platform shows 30, Tare projects 12');
      expect(fixed.stdout).toContain('→ adopted');
      expect((await tare(['reconcile'], dataDir)).stdout).toBe(`${DEMO_SHOP}: 11 levels, 0 drifting\n`);
    },
    SLOW * 3,
  );

  it(
    'when the arguments are wrong or the shop unknown, then it says so in one line',
    async () => {
      const typo = await tare(['reconcile', '--shp', DEMO_SHOP], dataDir);
      expect(typo.code).toBe(2);
      expect(typo.stderr.split('\n')[0]).toBe("error: reconcile: unknown option '--shp'");
      const unknown = await tare(['reconcile', '--shop', 'nope.example'], dataDir);
      expect(unknown).toMatchObject({ code: 1, stderr: "error: No shop 'nope.example'.\n" });
    },
    SLOW * 2,
  );
});
