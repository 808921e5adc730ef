import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { verifyPassword } from '../../src/domain/password.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, startTestServer } from '../support/harness.js';
import { adminBrowser, adminSession } from './support/admin-http.js';
import { staffWithPassword } from './support/admin-site.js';

/** The password form: the domain's rule for new passwords, and the sign-in budget for the current one. */
describe.each(testDrivers())('admin password rules on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let shop: { domain: string };

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(db);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const storedHash = async (email: string) =>
    (await db.query<{ password_hash: string }>('SELECT password_hash FROM admin_users WHERE email = $1', [email]))
      .rows[0]!.password_hash;

  test('when the new password is blank or one of the most common, then the form refuses it and keeps the old one', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    const admin = await adminSession(server, staff.email, staff.password);
    const refused: [string, string][] = [
      [' '.repeat(14), 'New password must not be blank'],
      ['Administrator', 'New password is one of the most common passwords; choose another'],
      ['1q2w3e4r5t6y', 'New password is one of the most common passwords; choose another'],
    ];
    for (const [next, message] of refused) {
      await admin.get('/admin/password');
      const answer = await admin.post('/admin/password', { current: staff.password, next, confirmation: next });
      expect(answer.status, next).toBe(400);
      expect(answer.text, next).toContain(message);
    }
    expect(await verifyPassword(staff.password, await storedHash(staff.email))).toBe(true);
  });

  test('when the current password is guessed again and again, then the sign-in budget stops it with 429, even the right one', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    const admin = await adminSession(server, staff.email, staff.password);
    const statuses: number[] = [];
    // The account's budget is 5 attempts at once, one already spent by signing in.
    for (let guess = 0; guess < 8 && !statuses.includes(429); guess++) {
      await admin.get('/admin/password');
      const answer = await admin.post('/admin/password', {
        current: `guess number ${guess}`,
        next: 'a long and private phrase',
        confirmation: 'a long and private phrase',
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(answer.text).toContain('Too many password attempts.');
      }
    }
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(4);
    expect(statuses.at(-1)).toBe(429);

    await admin.get('/admin/password');
    const right = await admin.post('/admin/password', {
      current: staff.password,
      next: 'a long and private phrase',
      confirmation: 'a long and private phrase',
    });
    expect(right.status).toBe(429);
    expect(await verifyPassword(staff.password, await storedHash(staff.email))).toBe(true);
    // The same budget guards the sign-in form: the guesser cannot move there instead.
    expect((await adminBrowser(server).signIn(staff.email, staff.password)).status).toBe(429);
  });
});
