import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { formFields, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

const CREATE_FORM = 'form[action="/admin/api-keys"]';

describe.each(testDrivers())('admin API keys page in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let shop: { domain: string; shopId: string };
  let otherShop: { domain: string; key: string; keyId: string };
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(db);
    otherShop = await seedShop(db);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await db?.close();
  });
  beforeEach(async () => {
    const staff = await staffWithPassword(db, shop.domain);
    context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    await signIn(page, server, staff.email, staff.password);
    expect(new URL(page.url()).pathname).toBe('/admin/api-keys');
  });
  afterEach(async () => {
    await context?.close();
  });

  const keyNames = async () =>
    (await db.query<{ name: string }>('SELECT name FROM api_keys WHERE shop_id = $1', [shop.shopId])).rows.map(
      (row) => row.name,
    );

  test('when a key is created, then it is shown once with a copy button, works at the API, and fails there once revoked', async () => {
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Name').fill('Mobile app');
    await page.getByRole('button', { name: 'Create key' }).click();
    const token = await page.getByLabel('New API key').inputValue();
    expect(token).toMatch(/^apik_[a-z2-7]{16}_[0-9A-Za-z]{43}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect.poll(() => page.locator('.copy-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-api-key-created`);

    const keyId = token.slice(5, 21);
    const row = page.getByRole('row').filter({ hasText: keyId });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      keyId,
      'Mobile app',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/),
      'never',
      'never',
      'active',
      expect.any(String),
    ]);
    const settings = await call(server, '/api/v1/app-settings', { key: token });
    expect(settings.status).toBe(200);

    // The secret is not shown again: a reload lists the key without it.
    await page.goto(`${server.url}/admin/api-keys`);
    expect(await page.content()).not.toContain(token.slice(22));

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Revoke key Mobile app (${keyId})` }).click();
    await page.waitForURL(/revoked=/);
    expect(await page.getByRole('status').textContent()).toContain(`Key ${keyId} is revoked`);
    expect(await row.getByRole('cell').nth(5).textContent()).toBe('revoked');
    await screenshot(page, `${driver.name}-api-keys`);
    expect((await call(server, '/api/v1/app-settings', { key: token })).status).toBe(401);
  });

  test('when a name holds HTML, then it is shown as text and nothing of it runs', async () => {
    const name = '<img src=x onerror="window.__ran=1"><b>bold</b>';
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe(`Key “${name}” created`);
    expect(await page.locator('main img, main b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran)).toBeUndefined();
    expect(await page.getByRole('cell', { name, exact: true }).count()).toBe(1);
  });

  test('when the form is invalid, then the field is named as the API names it and nothing is saved', async () => {
    const before = await keyNames();
    await page.getByLabel('Name').fill('   ');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.locator('#name-error').textContent()).toBe('Name must not be empty');
    expect(await page.getByRole('alert').textContent()).toContain(
      'Nothing was saved: 1 problem to fix, shown beside the field.',
    );
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-api-key-invalid`);

    await page.getByLabel('Name').fill('Last year');
    await page.getByLabel('Expires on (optional)').fill('2001-01-01');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.locator('#expiresAt-error').textContent()).toBe('Expires on must be in the future');
    expect(await page.getByLabel('Name').inputValue()).toBe('Last year');
    expect(await keyNames()).toEqual(before);

    // Corrected and sent again, the same form creates its key.
    await page.getByLabel('Expires on (optional)').fill('2999-12-31');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByLabel('New API key').inputValue()).toMatch(/^apik_/);
    const { rows } = await db.query<{ expires_at: Date }>(
      `SELECT expires_at FROM api_keys WHERE shop_id = $1 AND name = 'Last year'`,
      [shop.shopId],
    );
    expect(rows.map((r) => r.expires_at.toISOString())).toEqual(['3000-01-01T00:00:00.000Z']);
  });

  test('when the same form is posted twice (a double click), then one key is created', async () => {
    await page.getByLabel('Name').fill('Twice');
    const fields = await formFields(page, CREATE_FORM);
    const first = await page.request.post(`${server.url}/admin/api-keys`, { form: fields });
    const second = await page.request.post(`${server.url}/admin/api-keys`, { form: fields });
    expect([first.status(), second.status()]).toEqual([201, 409]);
    const token = /value="(apik_[^"]+)"/.exec(await first.text())![1]!;
    expect(await second.text()).toContain(`only the first created a key (${token.slice(5, 21)})`);
    expect(await second.text()).not.toContain(token);
    expect((await keyNames()).filter((name) => name === 'Twice')).toHaveLength(1);
  });

  test('when a form is sent without its CSRF token, then it is refused with 403 and nothing changes', async () => {
    await page.getByLabel('Name').fill('Keep');
    await page.getByRole('button', { name: 'Create key' }).click();
    const keyId = (await page.getByLabel('New API key').inputValue()).slice(5, 21);
    const before = await keyNames();

    const { _csrf: _, ...create } = await formFields(page, CREATE_FORM);
    const refused = await page.request.post(`${server.url}/admin/api-keys`, { form: { ...create, name: 'Forged' } });
    expect(refused.status()).toBe(403);
    const forgedRevoke = await page.request.post(`${server.url}/admin/api-keys/${keyId}/revoke`, {
      form: { _csrf: 'not-a-token' },
      maxRedirects: 0,
    });
    expect(forgedRevoke.status()).toBe(403);
    expect(await keyNames()).toEqual(before);
    const { rows } = await db.query('SELECT revoked_at FROM api_keys WHERE id = $1', [keyId]);
    expect(rows).toEqual([{ revoked_at: null }]);
  });

  test("when another shop's key is revoked from this shop's admin, then it is 404 and the key still works", async () => {
    expect(await page.content()).not.toContain(otherShop.keyId);
    const { _csrf } = await formFields(page, CREATE_FORM);
    const answer = await page.request.post(`${server.url}/admin/api-keys/${otherShop.keyId}/revoke`, {
      form: { _csrf: _csrf! },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(404);
    expect(answer.headers()['content-type']).toContain('text/html');
    const missing = await page.request.post(`${server.url}/admin/api-keys/aaaaaaaaaaaaaaaa/revoke`, {
      form: { _csrf: _csrf! },
      maxRedirects: 0,
    });
    expect([missing.status(), withoutIds(await missing.text())]).toEqual([404, withoutIds(await answer.text())]);
    expect((await call(server, '/api/v1/app-settings', { key: otherShop.key })).status).toBe(200);
    await page.goto(`${server.url}/admin/api-keys/${otherShop.keyId}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-not-found`);
  });
});

/** The page without what differs per request (the CSRF token, the request id). */
function withoutIds(html: string): string {
  return html.replace(/value="[^"]*"/g, 'value=""');
}
