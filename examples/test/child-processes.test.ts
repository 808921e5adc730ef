/**
 * A process a test starts ends whatever happens to the test: the process group registry and the
 * guard of packages/server/test/support/child-processes.ts, as the examples' `tare serve` uses
 * them. The fixtures (examples/test/fixtures/*.fixture.ts) are run by a vitest of their own, with
 * the repository's configuration, so that their tests can fail, time out and have their process
 * killed without this one doing so.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupExists, runGroup, spawnGroup } from '../../packages/server/test/support/child-processes.js';
import { REPO_ROOT } from './support/tare-process.js';

const VITEST = join(REPO_ROOT, 'node_modules/vitest/vitest.mjs');

/** Processes whose environment carries the marker (zombies have none, and are dead). */
function processesMarked(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** Neither the process nor any member of the group it leads is alive (zombies are dead). */
function gone(pid: number): boolean {
  let state: string | undefined;
  try {
    state = /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  } catch {
    // no such process
  }
  return (state === undefined || state === 'Z') && !groupExists(pid);
}

/** Waits (up to a bound, so that a leak fails the test instead of hanging it) for the condition. */
async function eventually(condition: () => boolean): Promise<boolean> {
  for (let i = 0; i < 150; i++) {
    if (condition()) return true;
    await sleep(200);
  }
  return condition();
}

describe('processes started by tests', () => {
  const probe = randomUUID();
  const marker = `TARE_LEAK_PROBE=${probe}`;
  let dir: string;
  let nested: Awaited<ReturnType<typeof runGroup>>;
  let reports: Array<{ scenario: string; groupId: number | undefined }>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tare-leak-probe-'));
    const out = join(dir, 'groups.jsonl');
    nested = await runGroup(process.execPath, [VITEST, 'run', '--config', 'examples/test/fixtures/vitest.config.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, TARE_LEAK_PROBE: probe, LEAK_PROBE_OUT: out },
    });
    reports = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  }, 600_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const groupOf = (scenario: string) => {
    const groupId = reports.find((r) => r.scenario === scenario)?.groupId;
    expect(groupId, `${scenario}: no process group reported\n${nested.stdout}${nested.stderr}`).toBeTypeOf('number');
    return groupId!;
  };

  it('when the fixtures run, then their tests fail, time out and are killed as planned', () => {
    const output = `${nested.stdout}${nested.stderr}`;
    expect(nested.code, output).toBe(1);
    expect(output).toContain('a simulated failure, with no dispose()');
    expect(output).toContain('Test timed out in 5000ms');
    expect(reports.map((r) => r.scenario).sort()).toEqual(['failed', 'timed out', 'worker killed']);
  });

  it('when a test fails while its tare serve runs, then the server’s process group is gone after the file', async () => {
    const group = groupOf('failed');
    expect(await eventually(() => gone(group)), `process ${group} or its group is still alive`).toBe(true);
  });

  it('when a test times out while its process and that process’s child run, then both are gone', async () => {
    const group = groupOf('timed out');
    expect(await eventually(() => gone(group)), `process ${group} or its group is still alive`).toBe(true);
  });

  it('when the test process is killed with SIGKILL, then the process it started and that one’s child die too', async () => {
    const group = groupOf('worker killed');
    expect(await eventually(() => gone(group)), `process ${group} or its group is still alive`).toBe(true);
  });

  it('when the fixtures’ vitest is done, then nothing it started is left running', async () => {
    expect(await eventually(() => processesMarked(marker).length === 0)).toBe(true);
  });
});

describe('runGroup and spawnGroup', () => {
  it('when a command outlives its time limit, then it and the children it started are killed', async () => {
    // runGroup resolves once its output streams close: the backgrounded sleep holds them too.
    const result = await runGroup('bash', ['-c', 'sleep 1000 & sleep 1000'], { timeoutMs: 1_000 });
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
  });

  it('when the signal it was given aborts, then the whole group is killed at once', async () => {
    const controller = new AbortController();
    const child = spawnGroup('bash', ['-c', 'sleep 1000 & echo started; wait'], { signal: controller.signal });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    controller.abort();
    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await eventually(() => gone(child.pid))).toBe(true);
  });

  it('when it is asked to stop with SIGTERM, then the command gets the signal and the guard exits as it did', async () => {
    const script = 'trap \'echo got TERM; exit 7\' TERM; echo "started $$"; sleep 1000 & wait';
    const child = spawnGroup('bash', ['-c', script]);
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    while (!stdout.includes('started')) await new Promise((resolve) => child.stdout.once('data', resolve));
    expect(stdout).toBe(`started ${await child.commandPid}\n`); // the command's pid, not the guard's
    expect(await child.kill('SIGTERM')).toEqual({ code: 7, signal: null });
    expect(stdout).toContain('got TERM');
    expect(await eventually(() => gone(child.pid))).toBe(true); // the backgrounded sleep went too
  });
});
