import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// What `npm install` on a fresh clone resolves: it must install on the oldest Node we promise
// without an EBADENGINE warning, and without npm 11's warning about skipped install scripts.
const root = new URL('../../../../', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const pkg = readJson('package.json');
const lock = readJson('package-lock.json') as {
  packages: Record<string, { version?: string; engines?: { node?: string }; hasInstallScript?: boolean }>;
};
const oldestNode = semver.minVersion(pkg.engines.node)!.version;

describe('the locked dependency tree', () => {
  it('when installed on the oldest Node the README promises, then every package accepts it', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => entry.engines?.node && !semver.satisfies(oldestNode, entry.engines.node))
      .map(([path, entry]) => `${path}@${entry.version} wants node ${entry.engines!.node}`);
    expect(refusing).toEqual([]);
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    expect(readme).toContain(`Node.js ${semver.major(oldestNode)}.${semver.minor(oldestNode)} or newer`);
  });

  it('when a package has an install script, then allowScripts decides it, so npm does not warn', () => {
    const undecided = Object.entries(lock.packages)
      .filter(([path, entry]) => entry.hasInstallScript && path.startsWith('node_modules/'))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .filter((name) => !(name in (pkg.allowScripts ?? {})));
    expect(undecided).toEqual([]);
  });
});
