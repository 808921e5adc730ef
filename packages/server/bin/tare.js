#!/usr/bin/env node
// Runs the bundle in dist/ when it is at least as new as every source file (`npm install`
// builds it); otherwise, e.g. while editing, runs the TypeScript sources through tsx.
import { readdirSync, statSync } from 'node:fs';

const here = new URL('.', import.meta.url);
const bundle = new URL('../dist/tare.js', here);

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = new URL(entry.name + (entry.isDirectory() ? '/' : ''), dir);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function bundleIsFresh() {
  try {
    const built = statSync(bundle).mtimeMs;
    return (
      built >= newestSource(new URL('../src/', here)) && built >= newestSource(new URL('../../contracts/src/', here))
    );
  } catch {
    return false;
  }
}

let main;
if (bundleIsFresh()) {
  process.setSourceMapsEnabled(true);
  ({ main } = await import(bundle.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
