import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import {
  call,
  expectErrorEnvelope,
  rawCall,
  seedShop,
  shopFixture,
  startTestServer,
  variantFixture,
} from '../support/harness.js';

/** Rate-limit state goes to Redis when the suite is given one (as several instances would share it). */
const serverEnv: Record<string, string> = process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {};

/** One weight product sold per kg: the label set then holds exactly the keys below. */
function kgShop(overrides: Partial<ImportShop> = {}): ImportShop {
  return shopFixture({
    products: [{ id: '1001', title: 'Flour', measurementType: 'weight', variants: [variantFixture('2001', 'kg', 1)] }],
    ...overrides,
  });
}

const WORDS = {
  en: { unitPrice: 'Unit price', netWeight: 'Net weight', netQuantity: 'Net quantity' },
  fr: { unitPrice: 'Prix unitaire', netWeight: 'Poids net', netQuantity: 'Quantité nette' },
  es: { unitPrice: 'Precio unitario', netWeight: 'Peso neto', netQuantity: 'Cantidad neta' },
  de: { unitPrice: 'Grundpreis', netWeight: 'Nettogewicht', netQuantity: 'Nettomenge' },
} as const;

/** The complete label set of `kgShop` in a built-in locale. */
function kgLabels(locale: keyof typeof WORDS): Record<string, string> {
  const w = WORDS[locale];
  return {
    netMeasurementLabel: w.netQuantity,
    netMeasurementValue: '{Value} {Unit}',
    netWeight: w.netWeight,
    netWeight_value_kg: '{Value} {Unit}',
    unitPrice: w.unitPrice,
    unitPricePropertyName: w.unitPrice,
    unitPricePropertyValue: '{Price}/{Quantity}',
    unitPrice_weight_value_kg: '{Price}/{Quantity}',
  };
}

const withoutRequestId = ({ requestId: _ignored, ...rest }: any) => rest;

async function reimport(db: Db, shop: ImportShop) {
  const checked = validateImport({ shops: [shop] });
  if (!checked.ok) throw new Error(`bad fixture: ${JSON.stringify(checked.issues)}`);
  return importCatalog({ db, gateway: createLocalGateway() }, checked.value);
}

/** A multipart/form-data body with the given text fields. */
function multipart(fields: Record<string, string>): { body: string; contentType: string } {
  const boundary = `----tare${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(testDrivers())('GET /api/v1/app-settings on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db, serverEnv);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const settings = (key: string, query = '') => call(server, `/api/v1/app-settings${query}`, { key });

  describe('happy', () => {
    it('when called with a key, then the exact envelope with labels, mergeMatchingLineItems and meta.locale comes back', async () => {
      const { key } = await seedShop(db, kgShop());

      const res = await settings(key);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { settings: { localizedLabels: kgLabels('en'), mergeMatchingLineItems: true } },
        error: null,
        meta: { locale: 'en' },
        requestId: res.headers.get('x-request-id'),
      });
      expect(res.body.requestId).toMatch(/^req_/);
    });

    it('when the shop sells several types and units, then the dynamic keys follow its enabled units', async () => {
      const { key } = await seedShop(db, shopFixture());

      const res = await settings(key, '?locale=en');

      expect(res.body.data.settings.localizedLabels).toEqual({
        netLength: 'Length',
        netMeasurementLabel: 'Net quantity',
        netMeasurementValue: '{Value} {Unit}',
        netWeight: 'Net weight',
        netWeight_value_g: '{Value} {Unit}',
        netWeight_value_kg: '{Value} {Unit}',
        netWeight_value_lb: '{Value} {Unit}',
        unitPrice: 'Unit price',
        unitPricePropertyName: 'Unit price',
        unitPricePropertyValue: '{Price}/{Quantity}',
        unitPrice_weight_value_g: '{Price}/{Quantity}',
        unitPrice_weight_value_kg: '{Price}/{Quantity}',
        unitPrice_weight_value_lb: '{Price}/{Quantity}',
      });
    });

    it('when called, then Cache-Control is private, max-age=300 and an ETag is sent', async () => {
      const { key } = await seedShop(db, kgShop());

      const res = await settings(key);

      expect(res.headers.get('cache-control')).toBe('private, max-age=300');
      expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    });

    it('when If-None-Match carries the ETag, then 304 with an empty body and the same validators', async () => {
      const { key } = await seedShop(db, kgShop());
      const first = await settings(key, '?locale=fr');
      const etag = first.headers.get('etag')!;

      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await call(server, '/api/v1/app-settings?locale=fr', {
          key,
          headers: { 'if-none-match': ifNoneMatch },
        });
        expect(res.status, `If-None-Match: ${ifNoneMatch}`).toBe(304);
        expect(res.text).toBe('');
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('cache-control')).toBe('private, max-age=300');
      }
    });

    it('when If-None-Match carries another ETag, then the full 200 answer', async () => {
      const { key } = await seedShop(db, kgShop());

      const res = await call(server, '/api/v1/app-settings', { key, headers: { 'if-none-match': '"not-it"' } });

      expect(res.status).toBe(200);
      expect(res.body.data.settings.localizedLabels).toEqual(kgLabels('en'));
    });

    it('when another locale is asked for, then the ETag differs and the old one no longer matches', async () => {
      const { key } = await seedShop(db, kgShop());
      const en = await settings(key, '?locale=en');
      const de = await settings(key, '?locale=de');

      expect(de.headers.get('etag')).not.toBe(en.headers.get('etag'));
      const stale = await call(server, '/api/v1/app-settings?locale=de', {
        key,
        headers: { 'if-none-match': en.headers.get('etag')! },
      });
      expect(stale.status).toBe(200);
    });

    it.each(['en', 'fr', 'es', 'de'] as const)(
      'when locale=%s, then that language’s defaults are served',
      async (locale) => {
        const { key } = await seedShop(db, kgShop());

        const res = await settings(key, `?locale=${locale}`);

        expect(res.status).toBe(200);
        expect(res.body.data.settings.localizedLabels).toEqual(kgLabels(locale));
        expect(res.body.meta).toEqual({ locale });
      },
    );

    it.each([
      ['fr-CA', 'fr'],
      ['fr_ca', 'fr'],
      ['FR', 'fr'],
      ['de-AT', 'de'],
      ['es-419', 'es'],
    ] as const)('when locale=%s, then it falls back to its language %s', async (requested, served) => {
      const { key } = await seedShop(db, kgShop());

      const res = await settings(key, `?locale=${encodeURIComponent(requested)}`);

      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ locale: served });
      expect(res.body.data.settings.localizedLabels).toEqual(kgLabels(served));
    });

    it('when the shop overrides a key for fr-CA, then that key wins for fr-CA only and the rest falls back to fr', async () => {
      const { key } = await seedShop(db, kgShop({ labels: { 'fr-CA': { unitPrice: 'Prix à l’unité' } } }));

      const frCa = await settings(key, '?locale=fr-CA');
      const fr = await settings(key, '?locale=fr');

      expect(frCa.body.meta).toEqual({ locale: 'fr-CA' });
      expect(frCa.body.data.settings.localizedLabels).toEqual({ ...kgLabels('fr'), unitPrice: 'Prix à l’unité' });
      expect(fr.body.meta).toEqual({ locale: 'fr' });
      expect(fr.body.data.settings.localizedLabels).toEqual(kgLabels('fr'));
    });

    it('when the shop overrides keys for en, then the default (no locale) answer carries them', async () => {
      const { key } = await seedShop(
        db,
        kgShop({ labels: { en: { netWeight: 'Weight', unitPrice_weight_value_kg: '{Price} per {Unit}' } } }),
      );

      const res = await settings(key);

      expect(res.body.data.settings.localizedLabels).toEqual({
        ...kgLabels('en'),
        netWeight: 'Weight',
        unitPrice_weight_value_kg: '{Price} per {Unit}',
      });
    });

    it('when the locale is unknown, then 200 in the shop’s default locale (de)', async () => {
      const { key } = await seedShop(db, kgShop({ defaultLocale: 'de' }));

      for (const locale of ['xx', 'zz-ZZ', '!!', 'x'.repeat(40)]) {
        const res = await settings(key, `?locale=${encodeURIComponent(locale)}`);
        expect(res.status, `locale ${locale}`).toBe(200);
        expect(res.body.meta).toEqual({ locale: 'de' });
        expect(res.body.data.settings.localizedLabels).toEqual(kgLabels('de'));
      }
    });

    it('when the locale is unknown and so is the shop’s default, then en', async () => {
      const { key } = await seedShop(db, kgShop({ defaultLocale: 'it' }));

      const res = await settings(key, '?locale=xx');

      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ locale: 'en' });
      expect(res.body.data.settings.localizedLabels).toEqual(kgLabels('en'));
    });

    it('when no locale is given, then en is served even for a shop whose default is de (spec: "the default locale en")', async () => {
      const { key } = await seedShop(db, kgShop({ defaultLocale: 'de' }));

      for (const query of ['', '?locale=']) {
        const res = await settings(key, query);
        expect(res.status).toBe(200);
        expect(res.body.meta, `query '${query}'`).toEqual({ locale: 'en' });
        expect(res.body.data.settings.localizedLabels).toEqual(kgLabels('en'));
      }
    });

    it.each([
      ['true', { mergeMatchingLineItems: true }, true],
      ['false', { mergeMatchingLineItems: false }, false],
    ] as const)(
      'when the shop set mergeMatchingLineItems to %s, then it is present with that value',
      async (_l, shopSettings, value) => {
        const { key } = await seedShop(db, kgShop({ settings: shopSettings }));

        const res = await settings(key);

        expect(res.body.data.settings).toEqual({ localizedLabels: kgLabels('en'), mergeMatchingLineItems: value });
      },
    );

    it('when the shop did not set mergeMatchingLineItems, then the field is absent', async () => {
      const noSettings = kgShop();
      delete noSettings.settings;
      const { key } = await seedShop(db, noSettings);
      const { key: emptyKey } = await seedShop(db, kgShop({ settings: {} }));

      for (const k of [key, emptyKey]) {
        const res = await settings(k);
        expect(res.body.data.settings).toEqual({ localizedLabels: kgLabels('en') });
        expect(res.body.data.settings).not.toHaveProperty('mergeMatchingLineItems');
      }
    });

    it('when labels are re-imported, then the next request shows them with a new ETag', async () => {
      const shop = kgShop({ labels: { fr: { unitPrice: 'Prix' } } });
      const { key } = await seedShop(db, shop);
      const before = await settings(key, '?locale=fr');
      expect(before.body.data.settings.localizedLabels.unitPrice).toBe('Prix');

      await reimport(db, { ...shop, labels: { fr: { unitPrice: 'Prix au kilo' } } });

      const deadline = Date.now() + 2000;
      let after = await settings(key, '?locale=fr');
      while (after.body.data.settings.localizedLabels.unitPrice !== 'Prix au kilo' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        after = await settings(key, '?locale=fr');
      }
      expect(after.body.data.settings.localizedLabels.unitPrice, 'the re-imported label did not show within 2 s').toBe(
        'Prix au kilo',
      );
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    });

    it('when the key comes as the url-encoded form field `key` without Authorization, then it is accepted', async () => {
      const { key } = await seedShop(db, kgShop());
      const viaHeader = await settings(key, '?locale=es');

      for (const contentType of [
        'application/x-www-form-urlencoded',
        'application/x-www-form-urlencoded; charset=utf-8',
      ]) {
        const res = await rawCall(server, '/api/v1/app-settings?locale=es', {
          headers: { 'content-type': contentType },
          body: `other=1&key=${encodeURIComponent(key)}`,
        });
        expect(res.status, contentType).toBe(200);
        expect(withoutRequestId(res.body)).toEqual(withoutRequestId(viaHeader.body));
        expect(res.headers.get('cache-control')).toBe('private, max-age=300');
      }
    });

    it('when the key comes as the multipart form field `key` without Authorization, then it is accepted', async () => {
      const { key } = await seedShop(db, kgShop());
      const viaHeader = await settings(key, '?locale=de');
      const form = multipart({ note: 'hello', key });

      const res = await rawCall(server, '/api/v1/app-settings?locale=de', {
        headers: { 'content-type': form.contentType },
        body: form.body,
      });

      expect(res.status).toBe(200);
      expect(withoutRequestId(res.body)).toEqual(withoutRequestId(viaHeader.body));
    });

    it('when the key is sent in its `<keyId>:<secret>` spelling, then it is accepted too', async () => {
      const { key, keyId } = await seedShop(db, kgShop());
      const secret = key.slice(`apik_${keyId}_`.length);

      const res = await settings(`${keyId}:${secret}`);

      expect(res.status).toBe(200);
      expect(res.body.data.settings.localizedLabels).toEqual(kgLabels('en'));
    });
  });

  describe('errors', () => {
    it('when a JSON body (even malformed) is sent on the GET, then it is ignored', async () => {
      const { key } = await seedShop(db, kgShop());

      const res = await rawCall(server, '/api/v1/app-settings', {
        key,
        headers: { 'content-type': 'application/json' },
        body: '{"locale": ',
      });

      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ locale: 'en' });
    });

    it('when the url-encoded form is malformed or lacks `key`, then 401', async () => {
      await seedShop(db, kgShop());

      for (const body of ['', 'key=', 'notkey=abc', '%%%', 'key=apik_short']) {
        const res = await rawCall(server, '/api/v1/app-settings', {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        expectErrorEnvelope(res, 401, 'unauthorized');
      }
    });

    it('when the multipart body is malformed, then 401 (never a 500)', async () => {
      const { key } = await seedShop(db, kgShop());

      const res = await rawCall(server, '/api/v1/app-settings', {
        headers: { 'content-type': 'multipart/form-data; boundary=nothere' },
        body: `key=${key}`,
      });

      expectErrorEnvelope(res, 401, 'unauthorized');
    });
  });

  describe('security', () => {
    it('when no key is sent, then 401 unauthorized with WWW-Authenticate: Bearer', async () => {
      const res = await call(server, '/api/v1/app-settings');

      const error = expectErrorEnvelope(res, 401, 'unauthorized');
      expect(error).toEqual({ code: 'unauthorized', message: 'A valid API key is required.', details: null });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.headers.get('etag')).toBeNull();
    });

    it('when the form key is wrong, then 401', async () => {
      const { keyId } = await seedShop(db, kgShop());

      const res = await rawCall(server, '/api/v1/app-settings', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `key=apik_${keyId}_${'Q'.repeat(43)}`,
      });

      expectErrorEnvelope(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('when an Authorization header is present, then the form key is not consulted (a bad header is 401)', async () => {
      const { key } = await seedShop(db, kgShop());

      const res = await rawCall(server, '/api/v1/app-settings', {
        headers: { authorization: 'Bearer wrong', 'content-type': 'application/x-www-form-urlencoded' },
        body: `key=${encodeURIComponent(key)}`,
      });

      expectErrorEnvelope(res, 401, 'unauthorized');
    });

    it('when the key is sent as a query parameter, then it is not accepted (401)', async () => {
      const { key } = await seedShop(db, kgShop());

      const res = await call(server, `/api/v1/app-settings?key=${encodeURIComponent(key)}`);

      expectErrorEnvelope(res, 401, 'unauthorized');
    });

    it('when the form key is sent on /products, then it is not accepted (401)', async () => {
      const { key } = await seedShop(db, kgShop());
      const form = multipart({ key });

      for (const init of [
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `key=${encodeURIComponent(key)}` },
        { headers: { 'content-type': form.contentType }, body: form.body },
      ]) {
        const res = await rawCall(server, '/api/v1/products/1001', init);
        expectErrorEnvelope(res, 401, 'unauthorized');
      }
    });

    it('when two shops override the same key, then each key sees only its shop’s override', async () => {
      const a = await seedShop(db, kgShop({ labels: { en: { unitPrice: 'Price A' } } }));
      const b = await seedShop(db, kgShop({ labels: { en: { unitPrice: 'Price B' } } }));

      expect((await settings(a.key)).body.data.settings.localizedLabels.unitPrice).toBe('Price A');
      expect((await settings(b.key)).body.data.settings.localizedLabels.unitPrice).toBe('Price B');
      expect((await settings(a.key)).body.data.settings.localizedLabels.unitPrice).toBe('Price A');
    });
  });

  describe('rate limiting', () => {
    it('when a shop allows 3 requests per minute, then the 4th is 429 rate_limited with Retry-After and RateLimit headers', async () => {
      const { key } = await seedShop(db, kgShop({ settings: { rateLimit: { enabled: true, requestsPerMinute: 3 } } }));

      const allowed = [await settings(key), await settings(key), await settings(key)];
      expect(allowed.map((r) => r.status)).toEqual([200, 200, 200]);
      for (const [i, res] of allowed.entries()) {
        expect(res.headers.get('ratelimit-policy')).toBe('3;w=60');
        expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^limit=3, remaining=${2 - i}, reset=\\d+$`));
      }

      const limited = await settings(key);
      const error = expectErrorEnvelope(limited, 429, 'rate_limited');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      // 3 per minute: one token every 20 s.
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(20);
      expect(error).toEqual({
        code: 'rate_limited',
        message: expect.any(String),
        details: { retryAfterSeconds: retryAfter },
      });
      expect(limited.headers.get('ratelimit-policy')).toBe('3;w=60');
      expect(limited.headers.get('ratelimit')).toBe(`limit=3, remaining=0, reset=${retryAfter}`);
      expect(limited.headers.get('cache-control')).not.toBe('private, max-age=300');
    });

    it('when one key of a shop is limited, then another key of the same shop has its own budget', async () => {
      const shop = kgShop({ settings: { rateLimit: { enabled: true, requestsPerMinute: 3 } } });
      const first = await seedShop(db, shop);
      const second = await seedShop(db, shop);
      for (let i = 0; i < 3; i++) expect((await settings(first.key)).status).toBe(200);
      expect((await settings(first.key)).status).toBe(429);

      expect((await settings(second.key)).status).toBe(200);
    });

    it('when the shop has rate limiting disabled, then 20 requests all pass without RateLimit headers', async () => {
      const { key } = await seedShop(db, kgShop({ settings: { rateLimit: { enabled: false, requestsPerMinute: 3 } } }));

      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof settings>> | undefined;
      for (let i = 0; i < 20; i++) {
        last = await settings(key);
        statuses.push(last.status);
      }

      expect(statuses).toEqual(Array(20).fill(200));
      expect(last!.headers.get('ratelimit')).toBeNull();
      expect(last!.headers.get('ratelimit-policy')).toBeNull();
    });

    it('when rate limiting is left at its default, then the policy is 600 per minute', async () => {
      const { key } = await seedShop(db, kgShop());

      const res = await settings(key);

      expect(res.headers.get('ratelimit-policy')).toBe('600;w=60');
    });
  });
});
