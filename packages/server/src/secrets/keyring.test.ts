import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createKeyring, KEY_FILE_NAME, keyringFor, SecretsKeyError } from './keyring.js';
import { SecretKey } from './secret-key.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tare-keyring-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('keyring', () => {
  it('when TARE_SECRETS_KEY is set, then it is the current key and previous keys are found by id', () => {
    const current = SecretKey.generate();
    const previous = SecretKey.generate();
    const keyring = createKeyring({ current, previous: [previous] });
    expect(keyring.current()).toBe(current);
    expect(keyring.find(previous.id)).toBe(previous);
    expect(keyring.find(current.id)).toBe(current);
    expect(keyring.find(SecretKey.generate().id)).toBeUndefined();
  });

  it('when no key is set on the embedded store, then a key file is made on first use, mode 0600, and kept', () => {
    const dir = tempDir();
    const file = path.join(dir, 'data', KEY_FILE_NAME);
    const first = createKeyring({ keyFile: file });
    expect(first.find('kmissing')).toBeUndefined(); // looking a key up makes no file
    expect(() => statSync(file)).toThrow();
    const key = first.current();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(key.exportBase64());
    // Another process (a CLI command) reads the same key.
    expect(createKeyring({ keyFile: file }).current().id).toBe(key.id);
  });

  it('when TARE_SECRETS_KEY is set after a key file was used, then the file key still opens what it sealed', () => {
    const file = path.join(tempDir(), KEY_FILE_NAME);
    const old = createKeyring({ keyFile: file }).current();
    const current = SecretKey.generate();
    const keyring = createKeyring({ current, keyFile: file });
    expect(keyring.current()).toBe(current);
    expect(keyring.find(old.id)?.id).toBe(old.id);
  });

  it('when no key is set on PostgreSQL, then sealing is refused, saying what to set', () => {
    const keyring = keyringFor(loadConfig({}), 'postgres');
    expect(() => keyring.current()).toThrow(SecretsKeyError);
    expect(() => keyring.current()).toThrow(/TARE_SECRETS_KEY is not set.*openssl rand -base64 32/);
  });

  it('when the key file holds something else than a key, then the error names the file, not its content', () => {
    const file = path.join(tempDir(), KEY_FILE_NAME);
    writeFileSync(file, 'hunter2-not-a-key\n');
    const attempt = () => createKeyring({ keyFile: file }).current();
    expect(attempt).toThrow(SecretsKeyError);
    expect(attempt).toThrow(file);
    expect(attempt).not.toThrow(/hunter2/);
  });
});

describe('TARE_SECRETS_KEY in the configuration', () => {
  it('when it is not 32 bytes, then the start fails with a ConfigError that does not echo the value', () => {
    expect(() => loadConfig({ TARE_SECRETS_KEY: 'my-password' })).toThrow(/^TARE_SECRETS_KEY must be 32 bytes/);
    expect(() => loadConfig({ TARE_SECRETS_KEY: 'my-password' })).not.toThrow(/my-password/);
    const good = SecretKey.generate().exportBase64();
    expect(() => loadConfig({ TARE_SECRETS_KEY: good, TARE_SECRETS_PREVIOUS_KEYS: `${good},oops` })).toThrow(
      /^TARE_SECRETS_PREVIOUS_KEYS entry 2 must be 32 bytes/,
    );
  });

  it('when both are valid, then the configuration holds the keys (and prints only their ids)', () => {
    const current = SecretKey.generate();
    const previous = SecretKey.generate();
    const config = loadConfig({
      TARE_SECRETS_KEY: current.exportBase64(),
      TARE_SECRETS_PREVIOUS_KEYS: ` ${Buffer.from(previous.exportBase64(), 'base64').toString('hex')} ,`,
    });
    expect(config.secretsKey?.id).toBe(current.id);
    expect(config.previousSecretsKeys.map((key) => key.id)).toEqual([previous.id]);
    expect(JSON.stringify(config)).not.toContain(current.exportBase64());
  });
});
