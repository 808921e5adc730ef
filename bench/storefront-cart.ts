// The sandbox storefront's add-to-cart round trip (issue 24, bench/README.md "Storefront add to
// cart"): `POST {storefront}/cart/add.js` as the picker sends it (a measured line, the cart in
// its cookie, no key), against a baseline measured in the same run: the same item through the
// sandbox API's `POST /sandbox/carts/{token}/add` (a bearer key, the token in the path). One
// client, one request at a time, alternating batches, on a `tare serve` of the demo catalog on
// PGlite (rate limit off). What the storefront adds is its shop lookup by domain and the titles
// its answer carries (the add itself goes straight to the cookie's cart, with no read before it).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEMO_CATALOG, DEMO_SHOP } from '../packages/server/src/cli/demo-catalog.js';
import { freePort, runNode, spawnNode, stop, waitFor200 } from './procs.js';

export const STOREFRONT_HEADING = '### Storefront add to cart';
const ROUNDS = 7;
const BATCH_MS = 300;
const TARE = path.resolve(import.meta.dirname, '../packages/server/bin/tare.js');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface StorefrontResults {
  storefrontMs: number;
  baselineMs: number;
  /** Each round's storefront ÷ baseline. */
  ratios: number[];
  requests: number;
}

const item = {
  items: [
    {
      id: 2001,
      quantity: 1,
      properties: {
        _svc_data: JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit: 'kg', value: 1.25 }] } }),
        'Net weight': '1.25 kg',
      },
    },
  ],
};

export async function benchStorefront(tmp: string, tareEnv: Record<string, string>): Promise<StorefrontResults> {
  const env = { ...tareEnv, TARE_DATA_DIR: path.join(tmp, 'storefront-data') };
  const document = structuredClone(DEMO_CATALOG);
  document.shops[0]!.settings = { ...document.shops[0]!.settings, rateLimit: { enabled: false } };
  const file = path.join(tmp, 'storefront-shop.json');
  writeFileSync(file, JSON.stringify(document));
  await runNode([TARE, 'import', file], env);
  const key = /apik_\S+/.exec(await runNode([TARE, 'keys', 'create', '--shop', DEMO_SHOP], env))?.[0];
  if (!key) throw new Error('tare keys create printed no key');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnNode([TARE, 'serve'], { ...env, PORT: String(port) });
  try {
    await waitFor200(`${url}/readyz`, child);
    return await measure(url, key);
  } finally {
    await stop(child);
  }
}

async function measure(url: string, key: string): Promise<StorefrontResults> {
  const json = { 'content-type': 'application/json' };
  const body = JSON.stringify(item);
  const storefront = `${url}/sandbox/storefront/${DEMO_SHOP}/`;
  // The storefront's cart comes with its cookie on the first add; the API's from POST /sandbox/carts.
  const first = await fetch(`${storefront}cart/add.js`, { method: 'POST', headers: json, body });
  const cookie = first.headers.get('set-cookie')?.split(';')[0];
  if (first.status !== 200 || !cookie) throw new Error(`add.js answered ${first.status}: ${await first.text()}`);
  const auth = { authorization: `Bearer ${key}` };
  const token = ((await (await fetch(`${url}/sandbox/carts`, { method: 'POST', headers: auth })).json()) as any).token;
  const requests = {
    storefront: () => fetch(`${storefront}cart/add.js`, { method: 'POST', headers: { ...json, cookie }, body }),
    baseline: () => fetch(`${url}/sandbox/carts/${token}/add`, { method: 'POST', headers: { ...json, ...auth }, body }),
  };
  let count = 0;
  /** ms per round trip over a batch of about BATCH_MS. */
  const batch = async (send: () => Promise<Response>) => {
    const started = performance.now();
    let n = 0;
    while (performance.now() - started < BATCH_MS) {
      const response = await send();
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`an add answered ${response.status}`);
      n++;
    }
    count += n;
    return (performance.now() - started) / n;
  };
  await batch(requests.storefront);
  await batch(requests.baseline);
  const storefrontMs: number[] = [];
  const baselineMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    storefrontMs.push(await batch(requests.storefront));
    baselineMs.push(await batch(requests.baseline));
  }
  return {
    storefrontMs: median(storefrontMs),
    baselineMs: median(baselineMs),
    ratios: storefrontMs.map((ms, i) => ms / baselineMs[i]!),
    requests: count,
  };
}

export function storefrontTable(r: StorefrontResults): string {
  const ratios = [...r.ratios].sort((a, b) => a - b);
  return [
    '| Round trip, one client, one request at a time | storefront `cart/add.js` | sandbox API `…/add` (baseline) | storefront ÷ baseline, median of the rounds |',
    '|---|---|---|---|',
    `| ms per add, median of ${ROUNDS} alternating batches | ${r.storefrontMs.toFixed(2)} | ${r.baselineMs.toFixed(2)} | **${median(r.ratios).toFixed(2)}×** (rounds ${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)}) |`,
  ].join('\n');
}
