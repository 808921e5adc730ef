import { execFile } from 'node:child_process';
import http from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, hashSecret } from '../../src/domain/api-key.js';
import { createApiKey, createAuthenticator, revokeKey } from '../../src/services/api-keys.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { type GroupProcess, spawnGroup } from '../support/child-processes.js';
import { serverDrivers } from '../support/databases.js';
import { seedShop, shopFixture, startTestServer } from '../support/harness.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/server/bin/tare.js');
const PATH = '/api/v1/products/1001';
const REVOCATIONS = 25;
/** Concurrent request loops per instance while a key is revoked: they keep its cache warm. */
const LOOPS = 4;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `tare serve` on the database, in a process of its own; resolves with its URL once it listens. */
async function serve(env: NodeJS.ProcessEnv): Promise<{ proc: GroupProcess; url: string }> {
  const port = await freePort();
  const proc = spawnGroup(process.execPath, [BIN, 'serve'], { cwd: REPO_ROOT, env: { ...env, PORT: String(port) } });
  let stdout = '';
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('Tare is listening on')) resolve();
    });
    void proc.exited.then(() => reject(new Error(`tare serve exited before listening:\n${stderr}`)));
  });
  return { proc, url: `http://127.0.0.1:${port}` };
}

/**
 * GET the product with `token` from the loopback address `from`: every 401 spends a token of the
 * sender's failure budget (60 a minute), so each part of a test sends from an address of its own.
 */
function status(url: string, token: string, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url + PATH, { headers: { authorization: `Bearer ${token}` }, localAddress: from }, (res) => {
      res.resume().once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
}

/**
 * Anything but a refusal: 401, or 429 once the loops' own 401s have spent their address's budget
 * (a refusal before the key is even read).
 */
const served = (answer: { status: number }) => answer.status !== 401 && answer.status !== 429;

let lastAddress = 0;
/** A loopback address no earlier part of this file sent from. */
const freshAddress = () => {
  lastAddress++;
  return `127.0.${Math.floor(lastAddress / 250) + 1}.${(lastAddress % 250) + 1}`;
};

/**
 * Requests `token` on every instance in `LOOPS` loops each until `stop()`; each answer is kept
 * with the moment its request was sent, so a test can look at those sent after an event.
 */
function hammer(urls: string[], token: string, from: string) {
  const answers: { sentAt: number; status: number; url: string }[] = [];
  let running = true;
  const loops = urls.flatMap((url) =>
    Array.from({ length: LOOPS }, async () => {
      while (running) {
        const sentAt = performance.now();
        answers.push({ sentAt, status: await status(url, token, from), url });
      }
    }),
  );
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

// Two `tare serve` processes on one database (PostgreSQL, and Citus's coordinator), each with its
// key cache, and a third party (this process, or the CLI) creating and revoking keys in the
// database through the same service.
const servers = serverDrivers({ citus: true });

// Without a database server the file still holds a suite, skipped (vitest fails a file with none).
describe.skipIf(servers.length === 0)('API keys on database servers', () => {
  describe.each(servers)('across two tare serve processes on $name', (driver) => {
    let db: Db;
    let drop: () => Promise<void>;
    let env: NodeJS.ProcessEnv;
    let instances: string[];
    let shopDomain: string;
    const procs: GroupProcess[] = [];

    beforeAll(async () => {
      const database = await driver.database();
      drop = database.drop;
      env = {
        ...process.env,
        DATABASE_URL: database.url,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        TARE_RECONCILE_MINUTES: '0',
      };
      // The database comes migrated; the first start loads the demo shop, the second finds it.
      const first = await serve(env);
      const second = await serve(env);
      procs.push(first.proc, second.proc);
      instances = [first.url, second.url];
      db = await openPostgres({ connectionString: database.url });
      // A shop without a rate limit: the loops send hundreds of requests a second.
      shopDomain = (await seedShop(db, shopFixture({ settings: { rateLimit: { enabled: false } } }))).domain;
    }, 60_000);

    afterAll(async () => {
      for (const proc of procs) await proc.kill('SIGKILL');
      await db?.close();
      await drop?.();
    });

    /**
     * A new key (expiring at `expiresAt`, if given), answered 200 at once by every instance, then
     * `cutOff` while both serve it to a load of requests from a warm cache; once `cutOff` has
     * returned, the very next request on each instance must be refused. The load's answers, as
     * those sent before and after `cutOff` returned.
     */
    async function cutOffUnderLoad(cutOff: (keyId: string) => Promise<unknown>, expiresAt?: Date) {
      const from = freshAddress();
      const key = await createApiKey(db, { shopDomain, expiresAt });
      for (const url of instances) expect(await status(url, key.token, from)).toBe(200);
      const load = hammer(instances, key.token, from);
      let returned = Infinity;
      try {
        await cutOff(key.keyId);
        returned = performance.now();
        for (const url of instances) expect(await status(url, key.token, freshAddress())).toBe(401);
      } finally {
        await load.stop();
      }
      return {
        before: load.answers.filter((a) => a.sentAt < returned),
        after: load.answers.filter((a) => a.sentAt >= returned),
      };
    }

    it(
      'when keys are revoked while both instances serve them from a warm cache, then no request sent after the revocation returned is answered 200',
      async () => {
        for (let i = 0; i < REVOCATIONS; i++) {
          const { before, after } = await cutOffUnderLoad(async (keyId) => {
            await new Promise((resolve) => setTimeout(resolve, 20 + (i % 5) * 10));
            await revokeKey(db, keyId);
          });
          expect(before.some((a) => a.status === 200)).toBe(true);
          expect(after.filter(served)).toEqual([]);
        }
      },
      REVOCATIONS * 5_000,
    );

    it('when a key is revoked by `tare keys revoke`, then the next request on either instance is 401', async () => {
      const { after } = await cutOffUnderLoad((keyId) =>
        promisify(execFile)(process.execPath, [BIN, 'keys', 'revoke', keyId], { cwd: REPO_ROOT, env }),
      );
      expect(after.filter(served)).toEqual([]);
    }, 30_000);

    it('when a key expires while both instances serve it from a warm cache, then requests sent after its expiry are 401', async () => {
      const expiresAt = new Date(Date.now() + 1_500);
      const { before, after } = await cutOffUnderLoad(
        () => new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 200)),
        expiresAt,
      );
      expect(before.some((a) => a.status === 200)).toBe(true);
      expect(after.filter(served)).toEqual([]);
    }, 30_000);
  });

  /** The store, with every notification handed to this instance `ms` late (in order): a listener behind. */
  function lagging(db: Db, ms: number): Db {
    return {
      ...db,
      listen: (channel, onPayload) => db.listen(channel, (payload) => void setTimeout(() => onPayload(payload), ms)),
    };
  }

  // NOTIFY reaches the other instances after the revoking COMMIT has returned, by up to milliseconds
  // under load: here the second instance hears every notification 40 ms late, as a busy one might.
  describe.each(servers)('on $name instances in one process', (driver) => {
    let first: Db;
    let second: Db;
    let drop: () => Promise<void>;
    const started: RunningServer[] = [];

    beforeAll(async () => {
      const database = await driver.database();
      drop = database.drop;
      first = await openPostgres({ connectionString: database.url });
      second = await openPostgres({ connectionString: database.url });
      started.push(await startTestServer(lagging(second, 40)));
    });

    afterAll(async () => {
      for (const server of started) await server.close();
      await first?.close();
      await second?.close();
      await drop?.();
    });

    it('when a key is revoked, then the lagging instance refuses it on the next request all the same', async () => {
      const shopDomain = (await seedShop(first, shopFixture({ settings: { rateLimit: { enabled: false } } }))).domain;
      const [server] = started;
      for (let i = 0; i < 10; i++) {
        const key = await createApiKey(first, { shopDomain });
        expect(await status(server!.url, key.token, freshAddress())).toBe(200);
        const load = hammer([server!.url], key.token, freshAddress());
        let returned = Infinity;
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          await revokeKey(first, key.keyId);
          returned = performance.now();
          expect(await status(server!.url, key.token, freshAddress())).toBe(401);
        } finally {
          await load.stop();
        }
        expect(load.answers.filter((a) => a.sentAt >= returned && served(a))).toEqual([]);
      }
    }, 30_000);
    it('when the cache may answer, then a verified key costs no lookup and every failure one lookup and one hash', async () => {
      const shop = await seedShop(first);
      let lookups = 0;
      let hashes = 0;
      let fresh = true;
      const authenticator = createAuthenticator({
        db: {
          ...first,
          query(sql, params) {
            if (/\bFROM api_keys\b/.test(sql)) lookups++;
            return first.query(sql, params);
          },
        },
        cacheTtlMs: 60_000,
        heard: { fresh: () => fresh },
        hashSecret: (secret) => {
          hashes++;
          return hashSecret(secret);
        },
      });
      const work = async (token: string, outcome: 'ok' | 'refused') => {
        const before = { lookups, hashes };
        const attempt = authenticator.authenticate(token);
        if (outcome === 'ok') await expect(attempt).resolves.toMatchObject({ keyId: shop.keyId });
        else await expect(attempt).rejects.toMatchObject({ code: 'unauthorized' });
        return { lookups: lookups - before.lookups, hashes: hashes - before.hashes };
      };
      const probed = generateKey();
      expect(await work(shop.key, 'ok')).toEqual({ lookups: 1, hashes: 1 });
      expect(await work(shop.key, 'ok')).toEqual({ lookups: 0, hashes: 0 });
      // Failures cost the same whichever part was wrong, every time: absences are not cached.
      for (let i = 0; i < 2; i++) {
        expect(await work(probed.token, 'refused')).toEqual({ lookups: 1, hashes: 1 });
        expect(await work(`apik_${shop.keyId}_${'A'.repeat(43)}`, 'refused')).toEqual({ lookups: 1, hashes: 1 });
      }
      // Without a fresh proof of what it heard, the cache asks the store (a verified secret stays verified).
      fresh = false;
      expect(await work(shop.key, 'ok')).toEqual({ lookups: 1, hashes: 0 });
    });
  });
});
