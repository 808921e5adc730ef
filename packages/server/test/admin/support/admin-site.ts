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

/** What a new variant's form sends: 1 kg per platform unit, a number input from 1 kg in steps of 0.5. */
export const NEW_VARIANT_FORM = {
  variantId: '2601',
  variantTitle: 'Loose',
  price: '24.00',
  unit: 'kg',
  unitValue: '1',
  displayStyle: 'number',
  min: '1',
  increment: '0.5',
  defaultValue: '1.5',
  max: '',
};

/** The signed-in pages, by name: each path on the demo shop's data. */
export const SIGNED_IN_PAGES: [name: string, path: string][] = [
  ['api-keys', '/admin/api-keys'],
  ['products', '/admin/products'],
  ['product', '/admin/products/1001'],
  ['product-new', '/admin/products/new'],
  ['variant', '/admin/products/1001/variants/2001'],
  ['variant-new', '/admin/products/1001/variants/new'],
  ['inventory', '/admin/inventory'],
  ['inventory-level', '/admin/inventory/70001/2001'],
  // The Comté wheel (a stock item) and a variant selling from it.
  ['stock-items', '/admin/inventory/stock-items'],
  ['stock-item', '/admin/inventory/stock-items/6001'],
  ['inventory-level-linked', '/admin/inventory/70001/2702'],
  ['orders', '/admin/orders'],
  ['order', '/admin/orders/5001'],
  ['labels', '/admin/labels'],
  ['labels-locale', '/admin/labels/fr'],
  ['settings', '/admin/settings'],
  ['password', '/admin/password'],
  ['not-found', '/admin/no-such-page'],
];
