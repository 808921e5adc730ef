// The browser script of <tare-measure-picker> (src/picker/browser.ts bundled with the cart helpers
// and the contracts it uses, no dependency): one classic script that registers the element, as a
// theme app extension asset must be. It is checked in at PICKER_ASSET because `shopify app deploy`
// uploads the extension folder as it is and CI has no network to build at install; the client's
// test/picker-asset.test.ts fails when the file is not what this build makes from the sources.
// `node packages/client/scripts/picker-script.mjs` (npm run build:picker) writes it.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
export const PICKER_ASSET = fileURLToPath(
  new URL('../../extensions/tare-measure-picker/assets/tare-measure-picker.js', root),
);

/** The script's text, the same bytes on every machine (no source map, no absolute paths). */
export async function buildPickerScript() {
  const result = await build({
    absWorkingDir: fileURLToPath(root),
    entryPoints: ['src/picker/browser.ts'],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // BigInt (exact prices) and private class members: every browser Shopify supports has them.
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  return `/* <tare-measure-picker>: built from packages/client/src/picker by npm run build:picker */\n${result.outputFiles[0].text}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(PICKER_ASSET, await buildPickerScript());
  console.log(`wrote ${PICKER_ASSET}`);
}
