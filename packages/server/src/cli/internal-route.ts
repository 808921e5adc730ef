import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../compose.js';
import { AppError } from '../errors.js';
import type { Keyring } from '../secrets/keyring.js';
import { describeFailure, inputText } from './command.js';
import { STORE_COMMANDS } from './store-commands.js';

/**
 * POST /internal/cli: runs a CLI store command inside the server that holds the PGlite data
 * dir. Only a caller that can read the handle file (mode 0600) knows the token.
 */
export function internalCliRoute(deps: { services: Services; token: string; keyring: Keyring }) {
  const expected = Buffer.from(`Bearer ${deps.token}`);
  return async (app: FastifyInstance) => {
    app.post<{ Body: { command: string; args: string[]; input?: string } }>(
      '/internal/cli',
      { bodyLimit: 256 * 1024 * 1024, schema: { hide: true } },
      async (request) => {
        const presented = Buffer.from(request.headers.authorization ?? '');
        if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
          throw new AppError('unauthorized', 'Not allowed.');
        }
        const { command, args, input } = request.body;
        const load = STORE_COMMANDS[command];
        const stdout: string[] = [];
        const stderr: string[] = [];
        if (!load) return { exitCode: 2, stdout, stderr: [`error: unknown command '${command}'`] };
        const { db, gateway } = deps.services;
        const io = { out: (line: string) => stdout.push(line), err: (line: string) => stderr.push(line) };
        try {
          const run = await load();
          const exitCode = await run(
            {
              db,
              gateway,
              keyring: deps.keyring,
              io,
              input: input === undefined ? undefined : inputText(input),
              changed: deps.services.invalidateAll,
            },
            args,
          );
          return { exitCode, stdout, stderr };
        } catch (error) {
          const failure = describeFailure(error);
          if (!failure) throw error;
          return { exitCode: failure.exitCode, stdout, stderr: [...stderr, ...failure.lines] };
        }
      },
    );
  };
}
