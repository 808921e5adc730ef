import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, startTestServer } from '../support/harness.js';
import { staffWithPassword } from './support/admin-site.js';

/** Cookie attributes over plain HTTP and behind a proxy that terminates HTTPS (no browser needed). */
describe.each(testDrivers())('admin cookies on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let staff: { email: string; password: string };

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    staff = await staffWithPassword(db, (await seedShop(db)).domain);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  async function signIn(headers: Record<string, string>) {
    const form = await fetch(`${server.url}/admin/login`, { headers });
    const csrfCookie = form.headers.getSetCookie();
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const answer = await fetch(`${server.url}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...headers,
        cookie: csrfCookie.map((c) => c.split(';')[0]).join('; '),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: token, email: staff.email, password: staff.password }),
    });
    expect(answer.status).toBe(303);
    return [...csrfCookie, ...answer.headers.getSetCookie()];
  }

  it('when the browser comes through an HTTPS proxy, then both cookies are Secure, HttpOnly and SameSite', async () => {
    const cookies = await signIn({ 'x-forwarded-proto': 'https' });
    expect(cookies).toEqual([
      expect.stringMatching(/^tare_admin_csrf=[^;]+; Path=\/admin; HttpOnly; Secure; SameSite=Strict$/),
      expect.stringMatching(/^tare_admin_session=[\w-]{43}; Path=\/admin; HttpOnly; Secure; SameSite=Lax$/),
    ]);
  });

  it('when the browser comes over plain HTTP, then the cookies are not Secure (the browser would drop them)', async () => {
    const cookies = await signIn({});
    expect(cookies).toHaveLength(2);
    for (const cookie of cookies) {
      expect(cookie).toContain('HttpOnly');
      expect(cookie).not.toContain('Secure');
    }
  });

  it('when an admin page is served, then it carries a CSP without inline scripts, is never cached and is not in the API document', async () => {
    const answer = await fetch(`${server.url}/admin/login`);
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    const openapi = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(openapi.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
  });

  it('when a page or a form address does not exist, then the admin answers its own 404 page in HTML', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const answer = await fetch(`${server.url}/admin/no-such-page`, { method });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await answer.text()).toContain('There is no such page in this shop’s admin.');
    }
  });
});
