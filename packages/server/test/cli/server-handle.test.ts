import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError, describeFailure } from '../../src/cli/command.js';
import { awaitServerHandle, writeServerHandle } from '../../src/cli/server-handle.js';

describe('awaitServerHandle', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tare-handle-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when the server holding the data dir never finishes starting, then that is one error line', async () => {
    // A live process other than this one, that never writes its URL.
    writeServerHandle(dir, { pid: process.ppid, url: null, token: 'x' });
    const failure = await awaitServerHandle(dir, 0).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CommandError);
    expect(describeFailure(failure)).toEqual({
      exitCode: 1,
      lines: [`error: the Tare server (pid ${process.ppid}) that holds ${dir} did not finish starting`],
    });
  });
});
