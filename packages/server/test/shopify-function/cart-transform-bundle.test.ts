import { createContext, runInContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cartTransformRun,
  type CartTransformRunInput,
  type CartTransformRunResult,
} from '../../../../extensions/cart-transform/src/cart_transform_run.js';
import { bundleFunction } from './bundle-function.js';
import { BAGS, cartLine, outputErrors, runInput } from './support.js';

// Shopify runs a JavaScript function on QuickJS (Javy): the language and JSON, no Node API, no
// Intl. The bundle must run there and answer as the sources do.
const CART: CartTransformRunInput = runInput([
  cartLine({ svc: 1.25 }, 1),
  cartLine({ svc: 0.1 }, 2),
  cartLine({ svc: 1, config: BAGS }, 3),
  cartLine({ svc: 1.25, amount: '2400', currency: 'JPY' }, 4),
  cartLine({ svc: 0.25, amount: '4.250', currency: 'BHD' }, 5),
  cartLine({ svc: '{', config: null }, 6),
]);

describe('the bundled function', () => {
  let bundle: Awaited<ReturnType<typeof bundleFunction>>;
  beforeAll(async () => {
    bundle = await bundleFunction();
  });

  it('when bundled twice, then the bytes are the same, and it holds only our sources', async () => {
    expect((await bundleFunction()).code).toBe(bundle.code);
    expect(
      bundle.inputs.filter((path) => !/^(extensions\/cart-transform|packages\/contracts)\/src\//.test(path)),
    ).toEqual([]);
    expect(bundle.code).not.toMatch(/\brequire\(|\bimport\(/);
  });

  it('when run in a bare JavaScript context without Intl, then it answers as the sources do', () => {
    const context = createContext({ input: JSON.stringify(CART) });
    runInContext('delete globalThis.Intl;', context);
    const output = runInContext(
      `${bundle.code}; JSON.stringify(cartTransform.cartTransformRun(JSON.parse(input)))`,
      context,
    );
    const result = JSON.parse(output) as CartTransformRunResult;
    expect(runInContext('typeof Intl', context)).toBe('undefined');
    expect(result.operations.map((o) => o.lineUpdate.price.adjustment.fixedPricePerUnit.amount)).toEqual([
      '30.00',
      '16.00',
      '3000',
      '1.062',
    ]);
    expect(result).toEqual(cartTransformRun(CART));
    expect(outputErrors(result)).toEqual([]);
  });
});
