import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';
import { type AdminAnswer, type AdminHttp, adminBrowser, adminSession } from './support/admin-http.js';
import { staffWithPassword } from './support/admin-site.js';
import { MACHINE_TALK } from '../support/machine-talk.js';

type Order = NonNullable<ImportShop['orders']>[number];

/** Tags stripped and entities read: the page's text as a person sees it. */
function visibleText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** Every message a refused form shows: beside each field, at the top, in the list of other problems. */
function messagesOf(html: string): { fields: Record<string, string>; top: string[] } {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<p class="field-error" id="([^"]+)-error">([\s\S]*?)<\/p>/g)) {
    fields[match[1]!] = visibleText(match[2]!).trim();
  }
  const top = [
    ...html.matchAll(/<div class="error" role="alert" id="form-errors">([\s\S]*?)<\/div>/g),
    ...html.matchAll(/<ul class="error-list">([\s\S]*?)<\/ul>/g),
    ...html.matchAll(/<p class="error" role="alert" id="sign-in-error">([\s\S]*?)<\/p>/g),
  ].map((match) => visibleText(match[1]!).trim());
  return { fields, top };
}

/**
 * The refused form says each problem in words, once, beside its field: `expected` maps the
 * field's id to words its message must hold (the field's own name first).
 */
function expectInWords(answer: AdminAnswer, expected: Record<string, string[]>): void {
  const { fields, top } = messagesOf(answer.text);
  const page = visibleText(answer.text);
  for (const text of [...Object.values(fields), ...top]) {
    for (const [what, pattern] of MACHINE_TALK) expect(text, `${what} in “${text}”`).not.toMatch(pattern);
  }
  for (const [field, words] of Object.entries(expected)) {
    const message = fields[field];
    expect(message, `no message beside ${field}; page says: ${top.join(' | ')}`).toBeDefined();
    for (const word of words) expect(message).toContain(word);
    // Once: not repeated at the top (which only counts the problems) nor anywhere else.
    expect(page.split(message!).length - 1, `“${message}” shown more than once`).toBe(1);
    expect(answer.text, `${field} is not tied to its message`).toMatch(
      new RegExp(`aria-describedby="[^"]*\\b${field}-error\\b`),
    );
  }
}

const svc = (value: number, unit: string) =>
  JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit, value }] } });

const order = (id: string): Order => ({
  id,
  status: 'open',
  locationId: '70001',
  lineItems: [
    {
      id: `${id}1`,
      productId: '1001',
      variantId: '2001',
      quantity: 2,
      price: '30.00',
      properties: [{ name: '_svc_data', value: svc(1.25, 'kg') }],
    },
  ],
});

/**
 * Every admin form, sent with bad input over HTTP with a real session and CSRF token: each
 * message says what is wrong in the field's own name, beside it, once, with no JSON pointer,
 * regular expression or validator keyword (issue 25). The API's own answers keep their paths.
 */
describe.each(testDrivers())('admin messages in words on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let shop: { domain: string; shopId: string; key: string };
  let admin: AdminHttp;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(
      db,
      shopFixture({
        products: [
          {
            id: '1001',
            title: 'Coffee beans',
            measurementType: 'weight',
            variants: [
              {
                ...variantFixture('2001', 'kg', 1),
                inventory: [{ locationId: '70001', quantity: { value: 10, unit: 'kg' } }],
              },
              {
                ...variantFixture('2003', 'lb', 1),
                settings: {
                  onlineStore: { displayStyle: 'dropdown', presets: [{ value: 0.5, label: 'Half' }, { value: 1 }] },
                },
              },
            ],
          },
          // A wheel sold per 100 g (PRODUCT.md §20): the item page's and the link form's messages.
          {
            id: '1003',
            title: 'Cheese',
            measurementType: 'weight',
            variants: [{ ...variantFixture('2701', 'g', 100), stockItemId: '6001' }],
          },
        ],
        stockItems: [
          {
            id: '6001',
            title: 'Wheel',
            measurementType: 'weight',
            unit: 'kg',
            inventory: [{ locationId: '70001', quantity: { value: 1, unit: 'kg' } }],
          },
        ],
        orders: [order('5001')],
      }),
    );
    const staff = await staffWithPassword(db, shop.domain);
    admin = await adminSession(server, staff.email, staff.password);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const levelOf = async (variantId: string) =>
    (await call(server, `/api/v1/inventory/levels?locationId=70001&variantId=${variantId}`, { key: shop.key })).body
      .data.levels[0].quantity;

  test('when the sign-in form is sent empty or with a NUL, then it says so in words', async () => {
    const browser = adminBrowser(server);
    await browser.get('/admin/login');
    const empty = await browser.post('/admin/login', { email: '', password: '' });
    expect(empty.status).toBe(400);
    expect(messagesOf(empty.text).top).toEqual(['Enter your email and your password.']);
    const nul = await browser.post('/admin/login', { email: 'a\u0000b@x', password: 'whatever-it-is' });
    expect(nul.status).toBe(400);
    expect(visibleText(nul.text)).toContain('Email must not contain the NUL character');
    expect(visibleText(nul.text)).not.toContain('/email');
  });

  test('when a new password is too short or not repeated, then each field says it', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    const own = await adminSession(server, staff.email, staff.password);
    await own.get('/admin/password');
    const short = await own.post('/admin/password', { current: staff.password, next: 'short', confirmation: 'short' });
    expect(short.status).toBe(400);
    expectInWords(short, { next: ['New password must be at least 12 characters'] });
    expect(messagesOf(short.text).top).toEqual(['Nothing was saved: 1 problem to fix, shown beside the field.']);
  });

  test('when a new product is sent with a bad id, price and rules, then each field names itself', async () => {
    const form = await admin.formOn('/admin/products/new', '/admin/products/new');
    const answer = await admin.post('/admin/products/new', {
      ...form,
      productId: 'abc',
      productTitle: 'Tea',
      measurementType: 'weight',
      variantId: '3001',
      variantTitle: 'Loose',
      price: '4.20€',
      unit: 'kg',
      unitValue: '1',
      displayStyle: 'number',
      min: '0.1',
      increment: '0.1',
      defaultValue: '1',
    });
    expect(answer.status).toBe(400);
    expectInWords(answer, {
      productId: ['Product id must be a number of 1 to 20 digits, like 5001'],
      price: ['Price must be an amount like 4.20'],
    });
    const rules = await admin.post('/admin/products/new', {
      ...form,
      productId: '1009',
      productTitle: 'Tea',
      measurementType: 'weight',
      variantId: '3001',
      variantTitle: 'Loose',
      price: '4.20',
      unit: 'kg',
      unitValue: '1',
      displayStyle: 'number',
      min: 'one',
      increment: '0',
      defaultValue: '1,000',
    });
    expect(rules.status).toBe(400);
    expectInWords(rules, {
      min: ['Minimum must be a number, like 4.20'],
      defaultValue: ['Default value could be 1000 or 1.000', 'use a dot for decimals'],
    });
  });

  test('when a price is typed with a decimal comma, then it is read as the amount it says', async () => {
    const form = await admin.formOn('/admin/products/new', '/admin/products/new');
    const created = await admin.post('/admin/products/new', {
      ...form,
      productId: '1010',
      productTitle: 'Cocoa',
      measurementType: 'weight',
      variantId: '3010',
      variantTitle: 'Loose',
      price: '4,20',
      unit: 'kg',
      unitValue: '1',
      displayStyle: 'number',
      min: '0,25',
      increment: '0,25',
      defaultValue: '1',
    });
    expect(created.status).toBe(303);
    const { rows } = await db.query('SELECT price::text AS price FROM variants WHERE id = $1', ['3010']);
    expect(rows).toEqual([{ price: '4.20' }]);
    const variant = await call(server, '/api/v1/products/1010', { key: shop.key });
    expect(variant.body.data.product.variants[0].settings.onlineStore.rules.min).toBe(0.25);
  });

  test('when a variant’s rules or presets are refused by the import, then the field says it in words', async () => {
    const path = '/admin/products/1001/variants/2001';
    const form = await admin.formOn(path, path);
    const answer = await admin.post(path, { ...form, defaultValue: '-1' });
    expect(answer.status).toBe(400);
    expectInWords(answer, { defaultValue: ['Default value must be more than 0'] });

    const dropdown = '/admin/products/1001/variants/2003';
    const presets = await admin.formOn(dropdown, dropdown);
    const refused = await admin.post(dropdown, { ...presets, presetValue_0: '0', presetPrice_1: '1.2.3' });
    expect(refused.status).toBe(400);
    expectInWords(refused, {
      presetValue_0: ['Preset 1 value must be more than 0'],
      presetPrice_1: ['Preset 2 price must be an amount like 4.20'],
    });
  });

  test('when a product’s type is not a type or its unit is not of the type, then the field says it in words', async () => {
    const form = await admin.formOn('/admin/products/1001', '/admin/products/1001');
    const bogus = await admin.post('/admin/products/1001', { ...form, measurementType: 'mass' });
    expect(bogus.status).toBe(400);
    expectInWords(bogus, { measurementType: ['Measurement type must be one of: weight, length'] });
    const unit = await admin.post('/admin/products/1001', { ...form, measurementType: 'weight', variantUnit: 'm' });
    expect(unit.status).toBe(400);
    expectInWords(unit, { variantUnit: ["Unit of the variants: variant 2001: unit 'm' is not a weight unit"] });
  });

  test('when a key that is not the shop’s is revoked, then the page says so in words', async () => {
    await admin.get('/admin/api-keys');
    const answer = await admin.post('/admin/api-keys/aaaaaaaaaaaaaaaa/revoke', {});
    expect(answer.status).toBe(404);
    const message = visibleText(/<section class="card narrow">([\s\S]*?)<\/section>/.exec(answer.text)![1]!);
    for (const [what, pattern] of MACHINE_TALK) expect(message, what).not.toMatch(pattern);
  });

  test('when stock is adjusted or set with words, a negative level or an ambiguous comma, then it says what to type', async () => {
    const level = '/admin/inventory/70001/2001';
    const adjust = await admin.formOn(level, '/adjust');
    const words = await admin.post(`${level}/adjust`, { ...adjust, delta: 'three', unit: 'kg' });
    expect(words.status).toBe(400);
    expectInWords(words, { delta: ['Change must be a number, like 4.20 (use a dot for decimals)'] });
    const ambiguous = await admin.post(`${level}/adjust`, { ...adjust, delta: '1,500', unit: 'kg' });
    expectInWords(ambiguous, { delta: ['Change could be 1500 or 1.500'] });

    const set = await admin.formOn(level, '/set');
    const negative = await admin.post(`${level}/set`, { ...set, quantity: '-1', unit: 'kg' });
    expect(negative.status).toBe(400);
    expectInWords(negative, { quantity: ['New level must be 0 or more'] });
    expect(await levelOf('2001')).toEqual({ value: 10, unit: 'kg' });

    // A decimal comma where nothing else is meant: read, and written exactly.
    const comma = await admin.post(`${level}/adjust`, {
      ...(await admin.formOn(level, '/adjust')),
      delta: '1,5',
      unit: 'kg',
    });
    expect(comma.status).toBe(303);
    expect(await levelOf('2001')).toEqual({ value: 11.5, unit: 'kg' });
  });

  test('when a stock item is adjusted with words or set below 0, or a variant with stock is linked, then each field says it in words', async () => {
    const item = '/admin/inventory/stock-items/6001';
    const words = await admin.post(`${item}/adjust`, { ...(await admin.formOn(item, '/adjust')), delta: 'three' });
    expect(words.status).toBe(400);
    expectInWords(words, { delta: ['Change must be a number, like 4.20 (use a dot for decimals)'] });
    const negative = await admin.post(`${item}/set`, { ...(await admin.formOn(item, '/set')), quantity: '-1' });
    expect(negative.status).toBe(400);
    expectInWords(negative, { quantity: ['New level must be 0 or more'] });

    const variant = '/admin/products/1001/variants/2001';
    const before = await levelOf('2001');
    const form = await admin.formOn(variant, '/stock-item');
    const linked = await admin.post(`${variant}/stock-item`, { ...form, stockItemId: '6001' });
    expect(linked.status).toBe(409);
    expectInWords(linked, {
      stockItemId: [
        `Stock item: variant 2001 holds stock of its own (${before.value} kg at location 70001 (Main store))`,
      ],
    });
    expect(await levelOf('2001')).toEqual(before);

    await admin.get('/admin/inventory/stock-items');
    const unit = await admin.post('/admin/inventory/stock-items', {
      itemId: '6002',
      itemTitle: 'Oil',
      itemType: 'weight',
      itemUnit: 'L',
    });
    expect(unit.status).toBe(400);
    expectInWords(unit, { itemUnit: ["Unit 'L' is not a weight unit"] });
    const type = await admin.post(`${item}/edit`, {
      ...(await admin.formOn(item, '/edit')),
      itemType: 'volume',
      itemUnit: 'L',
    });
    expect(type.status).toBe(409);
    expectInWords(type, { itemType: ["Measurement type: stock item '6001' holds stock counted in weight units"] });
  });

  test('when a scanned label is not a scale label, then the scan field says it once', async () => {
    const form = await admin.formOn('/admin/inventory', '/admin/inventory/scan');
    const answer = await admin.post('/admin/inventory/scan', { ...form, code: '12345', locationId: '70001' });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expectInWords(answer, { code: ['Label'] });
  });

  test('when an order edit has a bad measurement or quantity, then each line’s field says it in words', async () => {
    const path = '/admin/orders/5001';
    const form = await admin.formOn(path, '/edit');
    const zero = await admin.post(`${path}/edit`, { ...form, 'value-50011': '0' });
    expect(zero.status).toBe(400);
    expectInWords(zero, { 'value-50011': ['Measurement must be more than 0'] });
    const words = await admin.post(`${path}/edit`, { ...form, 'quantity-50011': 'two' });
    expectInWords(words, { 'quantity-50011': ['Quantity must be a number'] });
    const negative = await admin.post(`${path}/edit`, { ...form, 'quantity-50011': '-1' });
    expectInWords(negative, { 'quantity-50011': ['Quantity must be 0 or more'] });
  });

  test('when an order id is not a number, then the find field says what an order id is', async () => {
    const answer = await admin.get('/admin/orders?orderId=abc');
    expect(answer.status).toBe(400);
    expectInWords(answer, { orderId: ['Order id must be a number of 1 to 20 digits, like 5001'] });
  });

  test('when the rate limit is not a whole number, then its field says so', async () => {
    for (const [typed, words] of [
      ['0', 'Requests per minute must be 1 or more'],
      ['abc', 'Requests per minute must be a whole number, like 3'],
      ['1,000', 'Requests per minute could be 1000 or 1.000'],
    ]) {
      const form = await admin.formOn('/admin/settings', '/admin/settings');
      const answer = await admin.post('/admin/settings', {
        ...form,
        rateLimitEnabled: 'on',
        requestsPerMinute: typed!,
      });
      expect(answer.status, typed).toBe(400);
      expectInWords(answer, { requestsPerMinute: [words!] });
    }
    const form = await admin.formOn('/admin/settings', '/admin/settings');
    const spaced = await admin.post('/admin/settings', { ...form, rateLimitEnabled: 'on', requestsPerMinute: '1 200' });
    expect(spaced.status).toBe(303);
  });

  test('when an API key has no name or an expiry in the past, then the field says it', async () => {
    const form = await admin.formOn('/admin/api-keys', '/admin/api-keys');
    const blank = await admin.post('/admin/api-keys', { ...form, name: ' ' });
    expect(blank.status).toBe(400);
    expectInWords(blank, { name: ['Name must not be empty'] });
    const again = await admin.formOn('/admin/api-keys', '/admin/api-keys');
    const past = await admin.post('/admin/api-keys', { ...again, name: 'Till', expiresAt: '2020-01-01' });
    expectInWords(past, { expiresAt: ['Expires on must be in the future'] });
  });

  test('when a label has an unknown token, then its field says it once', async () => {
    const form = await admin.formOn('/admin/labels/en', '/admin/labels/en');
    const key = Object.keys(form).find((name) => name.startsWith('label:'))!;
    const answer = await admin.post('/admin/labels/en', { ...form, [key]: 'per {Prce}' });
    expect(answer.status).toBe(400);
    const { fields, top } = messagesOf(answer.text);
    const [field] = Object.keys(fields);
    expectInWords(answer, { [field!]: ['{Prce}'] });
    expect(top).toEqual(['Nothing was saved: 1 problem to fix, shown beside the field.']);
  });

  test('the API keeps its JSON paths and validator messages', async () => {
    const answer = await call(server, '/api/v1/inventory/adjustments', {
      method: 'POST',
      key: shop.key,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'words-1' },
      body: JSON.stringify({ locationId: '70001', adjustments: [{ variantId: 'x', delta: { value: 1, unit: 'kg' } }] }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.errors[0]).toEqual({
      path: '/adjustments/0/variantId',
      message: 'must be a numeric id string of 1 to 20 digits',
    });
  });
});
