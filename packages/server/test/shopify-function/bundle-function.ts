import { build } from 'esbuild';

/**
 * The Cart Transform function as one plain script, bundled from extensions/cart-transform/src
 * with esbuild as Shopify's CLI bundles a JavaScript function before Javy compiles it: the
 * workspace TypeScript it imports from @tare/contracts included, nothing left to import. An
 * IIFE that sets `globalThis.cartTransform` to the module's exports, so a bare context can run
 * it. `inputs`: the source files whose code it holds (tree-shaking drops the rest).
 */
export async function bundleFunction(): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [new URL('../../../../extensions/cart-transform/src/index.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    metafile: true,
    format: 'iife',
    globalName: 'cartTransform',
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  const inputs = Object.entries(output!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
  return { code: result.outputFiles[0]!.text, inputs };
}
