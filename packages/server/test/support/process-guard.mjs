// Runs one command for a test (`node process-guard.mjs FILE ARGS…`) and makes sure that it, and
// everything it starts, dies with the test process. The test spawns this guard detached, so the
// guard leads a process group of its own that the command and its children join; the guard's
// stdin is a pipe from the test process, which nobody writes to. When the test process goes away,
// however it goes (even SIGKILL, which runs no handler of its own), the pipe reaches end of file
// and the guard kills its whole group.
//
// Otherwise the guard is transparent: the command writes straight to the test's stdout and
// stderr, SIGTERM, SIGINT and SIGHUP sent to the guard are passed on to the command, and the guard
// exits as the command did (same code, or killed by the same signal). The command's pid is written
// to file descriptor 3 when the test opened one.
import { spawn } from 'node:child_process';
import { closeSync, writeSync } from 'node:fs';
import { constants } from 'node:os';

const [file, ...args] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node process-guard.mjs FILE [ARGS…]\n');
  process.exit(2);
}

const killGroup = () => {
  try {
    process.kill(-process.pid, 'SIGKILL'); // the group's id is the guard's pid; the guard dies too
  } catch {
    process.exit(137);
  }
};
process.stdin.on('end', killGroup).on('close', killGroup).on('error', killGroup).resume();

const child = spawn(file, args, { stdio: ['ignore', 'inherit', 'inherit'] });
child.once('spawn', () => {
  try {
    writeSync(3, `${child.pid}\n`);
    closeSync(3);
  } catch {
    // no descriptor 3: nobody asked
  }
});
const forwarded = ['SIGTERM', 'SIGINT', 'SIGHUP'];
for (const signal of forwarded) process.on(signal, () => child.kill(signal));

child.once('error', (error) => {
  process.stderr.write(`process-guard: cannot run ${file}: ${error.message}\n`);
  process.exit(127);
});
child.once('exit', (code, signal) => {
  process.stdin.removeAllListeners();
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    // A signal Node ignores (SIGPIPE) does not end the guard: exit as a shell would report it.
    setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
  } else {
    process.exit(code ?? 1);
  }
});
