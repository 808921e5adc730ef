// The Cart Transform function's run time per cart of 1, 10 and 100 measured lines (issue 24,
// bench/README.md "Checkout function"), against a baseline in the same process: the same cart
// through a no-op function (what Shopify's template returns: parse the input, answer no
// operations, write the output). Run as `node [--jitless] --import tsx bench/cart-transform.ts`
// it prints its figures as JSON: bench/run.ts runs it with V8's JIT and without it (--jitless,
// an interpreter like the QuickJS Shopify runs a JavaScript function on).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type {
  CartTransformRunInput,
  CartTransformRunResult,
} from '../extensions/cart-transform/src/cart_transform_run.js';
import { bundleFunction } from '../packages/server/test/shopify-function/bundle-function.js';
import { cartLine, runInput } from '../packages/server/test/shopify-function/support.js';

export const FUNCTION_HEADING = '### Checkout function (Cart Transform)';
const SIZES = [1, 10, 100];
const ROUNDS = 7;
// Not report.ts's: it loads autocannon, whose WebAssembly a --jitless process does not have.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface CartTimes {
  lines: number;
  functionUs: number;
  baselineUs: number;
  operations: number;
}
export interface FunctionResults {
  jit: CartTimes[];
  jitless: CartTimes[];
  bundleBytes: number;
}

/** A cart of `n` measured lines the rules allow (0.25 kg steps up to 5 kg, every third one 3 ×). */
function cart(n: number): string {
  const lines = Array.from({ length: n }, (_, i) =>
    cartLine({ svc: 0.25 * ((i % 20) + 1), quantity: i % 3 ? 1 : 3 }, i + 1),
  );
  return JSON.stringify(runInput(lines));
}

/** µs per call of `run(input)`: batches of ~20 ms alternating with the baseline, median of ROUNDS. */
async function measure(run: (input: string) => string, baseline: (input: string) => string, input: string) {
  const batch = (fn: (input: string) => string, count: number) => {
    const started = performance.now();
    for (let i = 0; i < count; i++) fn(input);
    return ((performance.now() - started) * 1000) / count;
  };
  // Warm-up of ~0.5 s each, so the JIT has compiled both before anything is counted.
  for (const fn of [run, baseline]) for (const ended = performance.now() + 500; performance.now() < ended;) fn(input);
  const count = Math.max(1, Math.round(20_000 / batch(run, 20)));
  const fn: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    fn.push(batch(run, count));
    base.push(batch(baseline, count));
  }
  return { functionUs: median(fn), baselineUs: median(base) };
}

async function child(): Promise<{ carts: CartTimes[]; bundleBytes: number }> {
  const { code } = await bundleFunction();
  const transform = new Function(`${code}; return cartTransform;`)() as {
    cartTransformRun(input: CartTransformRunInput): CartTransformRunResult;
  };
  const run = (input: string) => JSON.stringify(transform.cartTransformRun(JSON.parse(input)));
  const noOp = (input: string) => (JSON.parse(input), JSON.stringify({ operations: [] }));
  const carts: CartTimes[] = [];
  for (const lines of SIZES) {
    const input = cart(lines);
    const operations = transform.cartTransformRun(JSON.parse(input)).operations.length;
    carts.push({ lines, operations, ...(await measure(run, noOp, input)) });
  }
  return { carts, bundleBytes: Buffer.byteLength(code) };
}

/** Both runs, each in its own Node process. */
export function benchCartTransform(): FunctionResults {
  const self = fileURLToPath(import.meta.url);
  const runChild = (flags: string[]) =>
    JSON.parse(
      execFileSync(process.execPath, [...flags, '--import', 'tsx', self], {
        cwd: path.dirname(path.dirname(self)),
        encoding: 'utf8',
      }),
    ) as { carts: CartTimes[]; bundleBytes: number };
  const jit = runChild([]);
  const jitless = runChild(['--jitless']);
  return { jit: jit.carts, jitless: jitless.carts, bundleBytes: jit.bundleBytes };
}

export function functionTable(r: FunctionResults): string {
  const us = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const rows = r.jit.map((jit, i) => {
    const jitless = r.jitless[i]!;
    return (
      `| ${jit.lines} measured line${jit.lines > 1 ? 's' : ''} (${jit.operations} priced): µs per cart, function ÷ no-op function | ` +
      `${us(jit.functionUs)} / ${us(jit.baselineUs)} = **${(jit.functionUs / jit.baselineUs).toFixed(1)}×** | ` +
      `${us(jitless.functionUs)} / ${us(jitless.baselineUs)} = **${(jitless.functionUs / jitless.baselineUs).toFixed(1)}×** |`
    );
  });
  return [
    '| Cart | V8 with JIT | V8 `--jitless` (interpreter) |',
    '|---|---|---|',
    ...rows,
    `| Bundle (extensions/cart-transform, esbuild) | ${(r.bundleBytes / 1024).toFixed(1)} KiB | |`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(await child()));
}
