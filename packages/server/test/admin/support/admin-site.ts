import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../../src/main.js';
import { hashPassword } from '../../../src/domain/password.js';
import { createAdminUser } from '../../../src/services/admin-users.js';
import type { Db } from '../../../src/store/db.js';
import { setAdminPassword } from '../../../src/store/repositories/admin-users.js';

/** A staff account of the shop whose own password is already chosen (the one-time step done). */
export async function staffWithPassword(db: Db, shopDomain: string): Promise<{ email: string; password: string }> {
  const { email } = await createAdminUser(db, { shopDomain, email: `staff-${randomUUID().slice(0, 8)}@example.com` });
  const password = `correct horse ${randomUUID()}`;
  const { rows } = await db.query<{ id: string }>('SELECT id FROM admin_users WHERE email = $1', [email]);
  await setAdminPassword(db, rows[0]!.id, await hashPassword(password));
  return { email, password };
}

/** Fills and sends the sign-in form the way a person does: by its labels and its button. */
export async function signIn(page: Page, server: RunningServer, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/admin/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
}

/** The form fields of the page's form matching `selector`, as the browser would send them. */
export async function formFields(page: Page, selector: string): Promise<Record<string, string>> {
  return page.$eval(selector, (form) => {
    const fields: Record<string, string> = {};
    for (const [name, value] of new FormData(form as HTMLFormElement)) fields[name] = String(value);
    return fields;
  });
}
