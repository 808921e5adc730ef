import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { formFields, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

const XSS = '<img src=x onerror=alert(1)>';
const EDITOR = 'form[data-label-editor]';

describe.each(testDrivers())('admin labels pages in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let shop: { domain: string; shopId: string; key: string };
  let context: BrowserContext;
  let page: Page;
  let dialogs: string[];

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await db?.close();
  });
  beforeEach(async () => {
    shop = await seedShop(db);
    const staff = await staffWithPassword(db, shop.domain);
    context = await browser.newContext();
    page = await context.newPage();
    dialogs = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signIn(page, server, staff.email, staff.password);
  });
  afterEach(async () => {
    await context?.close();
  });

  const labelsFor = async (locale: string) =>
    (await call(server, `/api/v1/app-settings?locale=${locale}`, { key: shop.key })).body.data.settings
      .localizedLabels as Record<string, string>;
  const storedOverrides = async () =>
    (
      await db.query<{ locale: string; key: string; value: string }>(
        'SELECT locale, key, value FROM shop_labels WHERE shop_id = $1 ORDER BY locale, key',
        [shop.shopId],
      )
    ).rows;
  const field = (key: string) => page.getByLabel(key, { exact: true });
  const previewOf = (key: string) => page.locator('tr[data-label-row]', { has: field(key) }).locator('.label-preview');
  const openEditor = async (locale: string) => {
    await page.goto(`${server.url}/admin/labels/${locale}`);
    await page.waitForSelector(`${EDITOR}[data-preview-ready="true"]`);
  };

  test('when an override is saved, then app settings serve it at once; cleared, the built-in text again', async () => {
    await page.getByRole('link', { name: 'Labels' }).click();
    expect(await page.locator('#locales tbody th').allTextContents()).toEqual(['en default', 'fr', 'es', 'de']);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-labels`);
    await page.getByRole('link', { name: 'fr', exact: true }).click();
    await page.waitForSelector(`${EDITOR}[data-preview-ready="true"]`);
    expect(await page.locator('#label-1-fallback').textContent()).toBe('Prix unitaire');

    await field('unitPrice_weight_value_kg').fill('{Price} le {Quantity_With_Space}');
    await field('netWeight').fill('Poids exact');
    const preview = await previewOf('unitPrice_weight_value_kg').locator('li').allTextContents();
    expect(preview).toHaveLength(2);
    expect(preview[0]).toMatch(/^1 kg 12,50\s.* le kg$/);
    expect(preview[1]).toMatch(/^1\.5 kg 18,75\s.* le 1\.5 kg$/);
    await page.getByRole('button', { name: 'Save labels' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Labels saved');
    expect(await field('netWeight').inputValue()).toBe('Poids exact');
    // No wait: this instance's app settings cache was dropped by the save itself.
    expect(await labelsFor('fr')).toMatchObject({
      unitPrice_weight_value_kg: '{Price} le {Quantity_With_Space}',
      netWeight: 'Poids exact',
    });
    expect((await labelsFor('fr-CA')).netWeight).toBe('Poids exact');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-labels-locale`);

    await field('unitPrice_weight_value_kg').fill('');
    expect(await previewOf('unitPrice_weight_value_kg').locator('.rendered').allTextContents()).toEqual([
      expect.stringMatching(/^12,50\s.*\/kg$/),
      expect.stringMatching(/^18,75\s.*\/1\.5kg$/),
    ]);
    await page.getByRole('button', { name: 'Save labels' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Labels saved');
    expect((await labelsFor('fr')).unitPrice_weight_value_kg).toBe('{Price}/{Quantity}');
    expect(await storedOverrides()).toEqual([{ locale: 'fr', key: 'netWeight', value: 'Poids exact' }]);
    await page.getByRole('link', { name: '← Labels' }).click();
    expect(await page.locator('#locales tbody tr').nth(1).locator('td').last().textContent()).toBe('1');
  });

  test('when a template is typed, then the preview fills every token as the storefront does, and names a bad one', async () => {
    await openEditor('en');
    await field('unitPrice_weight_value_g').fill('{Price} · {Quantity} · {Quantity_With_Space} · {Unit} · {Value}');
    expect(await previewOf('unitPrice_weight_value_g').locator('li').allTextContents()).toEqual([
      '1 g $12.50 · g · g · g · 1',
      '1.5 g $18.75 · 1.5g · 1.5 g · g · 1.5',
    ]);
    await field('netWeight_value_g').fill('{Value} {Unit} for {Price}');
    expect(await previewOf('netWeight_value_g').textContent()).toContain(
      'netWeight_value_g cannot use {Price} here; use {Quantity}, {Quantity_With_Space}, {Unit} or {Value}',
    );
    await field('netWeight_value_g').fill('');
    expect(await previewOf('netWeight_value_g').locator('li').allTextContents()).toEqual(['1 g 1 g', '1.5 g 1.5 g']);
    await field('netWeight').fill('Net {Value');
    expect(await previewOf('netWeight').textContent()).toContain(
      "netWeight has a '{' at character 5 that is not part of a token",
    );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test('when a template or the locale is refused, then the field is named as the import names it and nothing is saved', async () => {
    await openEditor('en');
    await field('unitPrice').fill('Price per unit');
    await field('unitPrice_weight_value_kg').fill('{Prce}/{Quantity}');
    await page.getByRole('button', { name: 'Save labels' }).click();
    expect(await page.locator('#form-errors').textContent()).toContain(
      'Nothing was saved: 1 problem to fix, shown beside the field.',
    );
    const input = field('unitPrice_weight_value_kg');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await input.inputValue()).toBe('{Prce}/{Quantity}');
    expect(await page.locator('.field-error').allTextContents()).toEqual([
      'unitPrice_weight_value_kg has an unknown token {Prce}; use {Price}, {Quantity}, {Quantity_With_Space}, {Unit} or {Value}',
    ]);
    expect(await field('unitPrice').inputValue()).toBe('Price per unit');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await storedOverrides()).toEqual([]);

    const fields = await formFields(page, EDITOR);
    const answer = await page.request.post(`${server.url}/admin/labels/${encodeURIComponent('not a locale!')}`, {
      form: { ...fields, 'label:unitPrice_weight_value_kg': '{Price}' },
      maxRedirects: 0,
    });
    // The form was made for the 'en' editor: posted to any other locale it is refused.
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain('This form was made for another page; nothing was changed.');
    expect(await storedOverrides()).toEqual([]);

    await page.goto(`${server.url}/admin/labels`);
    await page.getByRole('textbox', { name: 'Locale' }).fill('pt_br');
    await page.getByRole('button', { name: 'Open' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/labels/pt-BR');
    await page.goto(`${server.url}/admin/labels?locale=${encodeURIComponent('en_')}`);
    expect(await page.locator('#locale-error').textContent()).toBe("Locale 'en_' is not a valid locale");
  });

  test('when a label holds markup, then the page and the live preview show it as text', async () => {
    await openEditor('en');
    await field('netWeight').fill(XSS);
    await field('netWeight_value_kg').fill(`${XSS} {Value}`);
    expect(await previewOf('netWeight_value_kg').locator('.rendered').allTextContents()).toEqual([
      `${XSS} 1`,
      `${XSS} 1.5`,
    ]);
    await page.getByRole('button', { name: 'Save labels' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Labels saved');
    expect(await field('netWeight').inputValue()).toBe(XSS);
    expect(await previewOf('netWeight').textContent()).toContain(XSS);
    expect(await previewOf('netWeight_value_kg').locator('.rendered').first().textContent()).toBe(`${XSS} 1`);
    await field('netWeight').fill(`${XSS}!`);
    expect(await previewOf('netWeight').locator('.rendered').textContent()).toBe(`${XSS}!`);
    expect(await page.locator('main img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect((await labelsFor('en')).netWeight).toBe(XSS);
  });

  test('when the form is posted twice (a double click), then it applies once', async () => {
    await openEditor('de');
    await field('unitPrice').fill('Preis je Einheit');
    const first = await formFields(page, EDITOR);
    await openEditor('de');
    await field('unitPrice').fill('Grundpreis (neu)');
    const later = await formFields(page, EDITOR);
    const action = `${server.url}/admin/labels/de`;
    const answers = [
      await page.request.post(action, { form: first, maxRedirects: 0 }),
      await page.request.post(action, { form: later, maxRedirects: 0 }),
      // The first form again, after the later one: it must not undo it.
      await page.request.post(action, { form: first, maxRedirects: 0 }),
    ];
    expect(answers.map((answer) => answer.status())).toEqual([303, 303, 303]);
    expect(answers[2]!.headers().location).toBe('/admin/labels/de?saved=1');
    expect((await labelsFor('de')).unitPrice).toBe('Grundpreis (neu)');
    expect(await storedOverrides()).toEqual([{ locale: 'de', key: 'unitPrice', value: 'Grundpreis (neu)' }]);
  });

  test('when the form is sent without its CSRF token, then it is refused with 403 and nothing is saved', async () => {
    await openEditor('es');
    await field('unitPrice').fill('Precio');
    const { _csrf: _, ...fields } = await formFields(page, EDITOR);
    const refused = await page.request.post(`${server.url}/admin/labels/es`, { form: fields, maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    expect(await storedOverrides()).toEqual([]);
  });
});
