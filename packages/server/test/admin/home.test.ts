/**
 * Around the admin: `/` is a page linking the admin, the docs and the sandbox storefronts (every
 * other unknown path keeps the API's JSON 404), the icon is served and linked, /docs carries
 * Tare's name, and the navigation is hidden while a one-time password must be replaced.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import { createAdminUser } from '../../src/services/admin-users.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { adminBrowser, adminSession } from './support/admin-http.js';
import { staffWithPassword } from './support/admin-site.js';

const FAVICON = '/admin/assets/favicon.svg';

describe.each(testDrivers())('the home page, the icon and the docs page on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let sandboxOff: RunningServer;
  const closedStorefront = shopFixture({ settings: { storefront: { enabled: false } } });

  beforeAll(async () => {
    db = await driver.create();
    await seedShop(db, DEMO_CATALOG.shops[0]!);
    await seedShop(db, closedStorefront);
    server = await startTestServer(db);
    sandboxOff = await startTestServer(db, { TARE_SANDBOX: 'off' });
  });
  afterAll(async () => {
    await sandboxOff?.close();
    await server?.close();
    await db?.close();
  });

  test('when / is opened, then it links the admin, the docs and the storefront of each sandbox shop that has one', async () => {
    const home = await call(server, '/');
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.text).toContain('<title>Tare</title>');
    expect(home.text).toContain('<a href="/admin">Merchant admin</a>');
    expect(home.text).toContain('<a href="/docs">API documentation</a>');
    expect(home.text).toContain(`<a href="/sandbox/storefront/${DEMO_SHOP}/">Storefront of ${DEMO_SHOP}</a>`);
    expect(home.text).not.toContain(closedStorefront.domain);

    const withoutSandbox = await call(sandboxOff, '/');
    expect(withoutSandbox.status).toBe(200);
    expect(withoutSandbox.text).toContain('<a href="/admin">Merchant admin</a>');
    expect(withoutSandbox.text).not.toContain('/sandbox/storefront/');
  });

  test('when a path outside the admin does not exist, then the answer is still the API’s JSON 404', async () => {
    for (const path of ['/nothing-here', '/api/v1/nothing-here', '/index.html']) {
      expectErrorEnvelope(await call(server, path), 404, 'not_found');
    }
  });

  test('when a browser asks for the icon, then /favicon.ico leads to the SVG every page links', async () => {
    const ico = await call(server, '/favicon.ico', { redirect: 'manual' });
    expect(ico.status).toBe(301);
    expect(ico.headers.get('location')).toBe(FAVICON);
    const svg = await call(server, FAVICON);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);

    const link = `<link rel="icon" href="${FAVICON}" type="image/svg+xml">`;
    expect((await call(server, '/')).text).toContain(link);
    expect((await adminBrowser(server).get('/admin/login')).text).toContain(link);
    expect((await call(server, '/admin/no-such-page')).text).toContain(link);
  });

  test('when /docs is opened, then it is titled for Tare with Tare’s icon and wordmark, not Swagger’s', async () => {
    const docs = await call(server, '/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('<title>Tare API documentation</title>');
    expect(docs.text).toContain('type="image/svg+xml" href="/docs/static/theme/favicon.svg"');
    expect(docs.text).not.toContain('favicon-32x32.png');
    const icon = await call(server, '/docs/static/theme/favicon.svg');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.text).toBe((await call(server, FAVICON)).text);
    // The top bar's logo is Tare's wordmark, leading to the home page.
    const wordmark = (await call(server, '/admin/assets/wordmark.svg')).text;
    expect(wordmark).toContain('Tare API');
    const initializer = await call(server, '/docs/static/swagger-initializer.js');
    expect(initializer.text).toContain(`data:image/svg+xml;base64,${Buffer.from(wordmark).toString('base64')}`);
    expect(initializer.text).toMatch(/img\.href = '\/'/);
  });

  test('when staff hold a one-time password, then the password page has no navigation; once chosen, it has', async () => {
    const newcomer = await createAdminUser(db, { shopDomain: DEMO_SHOP, email: `newcomer-${driver.name}@example.com` });
    const forced = await adminSession(server, newcomer.email, newcomer.oneTimePassword);
    const page = await forced.get('/admin/password');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Choose your own to continue');
    expect(page.text).not.toContain('<nav');
    expect(page.text).not.toContain('href="/admin/products"');
    // Signing out stays possible.
    expect(page.text).toContain('action="/admin/logout"');

    const staff = await staffWithPassword(db, DEMO_SHOP);
    const chosen = await (await adminSession(server, staff.email, staff.password)).get('/admin/password');
    expect(chosen.text).toContain('<nav aria-label="Admin">');
    expect(chosen.text).toContain('href="/admin/products"');
  });
});
