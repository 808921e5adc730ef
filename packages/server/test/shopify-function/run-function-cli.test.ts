import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BAGS, cartLine, outputErrors, priced, runInput } from './support.js';

// Launches the real binary (bin/tare.js): 1–4 s each, more when it rebuilds its bundle first.
const SLOW = 90_000;
const BIN = fileURLToPath(new URL('../../bin/tare.js', import.meta.url));

function tare(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // No settings at all: the command must need none (a bad one would stop any other command).
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, PORT: 'not a port' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const RUN = ['shopify', 'run-function', 'cart-transform'];

describe('tare shopify run-function cart-transform', () => {
  it(
    'when given a cart on stdin, then it prints the output JSON and exits 0, whatever the lines hold',
    async () => {
      const cart = runInput([
        cartLine({ svc: 1.25 }, 1),
        cartLine({ svc: 0.1 }, 2),
        cartLine({ svc: 1, config: BAGS }, 3),
      ]);
      const result = await tare(RUN, JSON.stringify(cart));
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const output = JSON.parse(result.stdout);
      expect(output).toEqual({ operations: [priced('30.00', 1), priced('16.00', 3)] });
      expect(outputErrors(output)).toEqual([]);

      const forged = await tare(RUN, JSON.stringify(runInput([cartLine({ svc: '{"measurement":' })])));
      expect(forged).toEqual({ code: 0, stdout: '{"operations":[]}\n', stderr: '' });
    },
    SLOW,
  );

  it(
    'when stdin is not JSON or not the input shape, then it exits 1 with one error line',
    async () => {
      expect(await tare(RUN, '{"cart": ')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'error: the input is not JSON: line 1, column 10: expected a value, but the text ends\n',
      });
      const line = { ...cartLine({}), quantity: '1' };
      expect(await tare(RUN, JSON.stringify({ cart: { lines: [line] } }))).toEqual({
        code: 1,
        stdout: '',
        stderr:
          "error: the input is not the function's input (src/cart_transform_run.graphql): cart.lines[0].quantity must be an integer\n",
      });
    },
    SLOW,
  );

  it(
    'when the function is not one Tare has, then it is a usage error (exit 2)',
    async () => {
      const result = await tare(['shopify', 'run-function', 'discount'], '{}');
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^error: unknown function 'discount'\n\nusage:\n {2}tare shopify run-function cart-transform/,
      );
    },
    SLOW,
  );
});
