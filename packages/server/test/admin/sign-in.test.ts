import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { verifyPassword } from '../../src/domain/password.js';
import { createAdminUser } from '../../src/services/admin-users.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, startTestServer } from '../support/harness.js';
import { formFields, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

describe.each(testDrivers())('admin sign-in in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let shop: { domain: string };

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(db);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await db?.close();
  });

  test('when staff sign in with the one-time password, then they choose their own before anything else', async () => {
    const { email, oneTimePassword } = await createAdminUser(db, {
      shopDomain: shop.domain,
      email: `New.${driver.name}@Example.com`,
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/admin/login`);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `${driver.name}-sign-in`);

      await signIn(page, server, email.toUpperCase(), 'not the password');
      expect(await page.getByRole('alert').textContent()).toContain('The email or the password is wrong.');
      expect(await page.getByLabel('Email').inputValue()).toBe(email.toUpperCase());

      await signIn(page, server, email, oneTimePassword);
      expect(new URL(page.url()).pathname).toBe('/admin/password');
      // Every other page sends a one-time password holder back here.
      await page.goto(`${server.url}/admin/api-keys`);
      expect(new URL(page.url()).pathname).toBe('/admin/password');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `${driver.name}-choose-password`);

      await page.getByLabel('Current password').fill(oneTimePassword);
      await page.getByLabel('New password', { exact: true }).fill('short');
      await page.getByLabel('New password again').fill('short');
      await page.getByRole('button', { name: 'Save password' }).click();
      expect(await page.locator('#next-error').textContent()).toBe('New password must be at least 12 characters');
      expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid')).toBe('true');

      await page.getByLabel('Current password').fill(oneTimePassword);
      await page.getByLabel('New password', { exact: true }).fill('a long and private phrase');
      await page.getByLabel('New password again').fill('a long and private phrase');
      await page.getByRole('button', { name: 'Save password' }).click();
      expect(new URL(page.url()).pathname).toBe('/admin/api-keys');
      expect(await page.getByRole('status').first().textContent()).toContain('Your password is saved.');

      // The one-time password is gone for good; the chosen one is what is stored now.
      const { rows } = await db.query<{ password_hash: string; must_change_password: boolean }>(
        'SELECT password_hash, must_change_password FROM admin_users WHERE email = $1',
        [email],
      );
      expect(rows[0]!.must_change_password).toBe(false);
      expect(await verifyPassword(oneTimePassword, rows[0]!.password_hash)).toBe(false);
      expect(await verifyPassword('a long and private phrase', rows[0]!.password_hash)).toBe(true);
    } finally {
      await context.close();
    }
  });

  test('when staff sign out, then the session is gone and the pages ask to sign in again', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, server, staff.email, staff.password);
      expect(new URL(page.url()).pathname).toBe('/admin/api-keys');
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect(await page.getByRole('status').textContent()).toContain('You are signed out.');
      const { rows } = await db.query(
        'SELECT 1 FROM admin_sessions s JOIN admin_users u ON u.id = s.user_id WHERE u.email = $1',
        [staff.email],
      );
      expect(rows).toHaveLength(0);
      await page.goto(`${server.url}/admin/api-keys`);
      expect(new URL(page.url()).pathname).toBe('/admin/login');
    } finally {
      await context.close();
    }
  });

  test('when signed out, then the admin pages send the browser to the sign-in page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      for (const path of ['/admin', '/admin/api-keys', '/admin/password']) {
        await page.goto(`${server.url}${path}`);
        expect(new URL(page.url()).pathname).toBe('/admin/login');
      }
    } finally {
      await context.close();
    }
  });

  test('when a session has been idle too long, then the next page asks to sign in again', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, server, staff.email, staff.password);
      expect(new URL(page.url()).pathname).toBe('/admin/api-keys');
      await db.query(
        `UPDATE admin_sessions SET last_seen_at = now() - interval '31 minutes'
          WHERE user_id = (SELECT id FROM admin_users WHERE email = $1)`,
        [staff.email],
      );
      await page.goto(`${server.url}/admin/api-keys`);
      expect(new URL(page.url()).pathname).toBe('/admin/login');
      expect(await page.getByRole('status').textContent()).toContain('Your session ended.');
      const { rows } = await db.query(
        'SELECT 1 FROM admin_sessions s JOIN admin_users u ON u.id = s.user_id WHERE u.email = $1',
        [staff.email],
      );
      expect(rows).toHaveLength(0);
    } finally {
      await context.close();
    }
  });

  test('when a session is past its absolute lifetime, then it has ended even if used a moment ago', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, server, staff.email, staff.password);
      await db.query(
        `UPDATE admin_sessions SET expires_at = now() - interval '1 second', last_seen_at = now()
          WHERE user_id = (SELECT id FROM admin_users WHERE email = $1)`,
        [staff.email],
      );
      await page.goto(`${server.url}/admin/api-keys`);
      expect(new URL(page.url()).pathname).toBe('/admin/login');
    } finally {
      await context.close();
    }
  });

  test('when the sign-in form is sent without its CSRF token, then it is refused with 403 and nobody is signed in', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/admin/login`);
      const { _csrf: _, ...withoutToken } = await formFields(page, 'form[action="/admin/login"]');
      const answer = await page.request.post(`${server.url}/admin/login`, {
        form: { ...withoutToken, email: staff.email, password: staff.password },
        maxRedirects: 0,
      });
      expect(answer.status()).toBe(403);
      expect(await answer.text()).toContain('Nothing was changed.');
      expect(answer.headers()['set-cookie'] ?? '').not.toContain('tare_admin_session=');
    } finally {
      await context.close();
    }
  });

  test('when one account is guessed at, then attempts are limited and the right password waits too', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        await page.goto(`${server.url}/admin/login`);
        const fields = await formFields(page, 'form[action="/admin/login"]');
        const answer = await page.request.post(`${server.url}/admin/login`, {
          form: { ...fields, email: staff.email, password: `guess ${attempt}` },
          maxRedirects: 0,
        });
        statuses.push(answer.status());
        if (answer.status() === 429) expect(Number(answer.headers()['retry-after'])).toBeGreaterThan(0);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      await signIn(page, server, staff.email, staff.password);
      expect(await page.getByRole('alert').textContent()).toContain('Too many sign-in attempts.');
      expect(new URL(page.url()).pathname).toBe('/admin/login');
    } finally {
      await context.close();
    }
  });
});
