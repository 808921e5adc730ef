/**
 * Every admin page, signed out and in, on a shop like the demo's (orders, ledger entries, keys,
 * labels) at a laptop's 1280×800 and a phone's 360×740, in the light and the dark theme: no page
 * scrolls sideways, each passes axe-core with no serious or critical violation, and each is saved
 * as a screenshot in test-output/admin-screenshots/ (`every-page-<width>[-dark]-<page>.png`).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import { createAdminUser } from '../../src/services/admin-users.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { SIGNED_IN_PAGES, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

/** Each width in the light theme, then in the dark one (`prefers-color-scheme: dark`). */
const VIEWPORTS = [
  { width: 1280, height: 800, theme: 'light', file: '1280' },
  { width: 360, height: 740, theme: 'light', file: '360' },
  { width: 1280, height: 800, theme: 'dark', file: '1280-dark' },
  { width: 360, height: 740, theme: 'dark', file: '360-dark' },
] as const;

/**
 * How far the page scrolls sideways (its document's width past the window's) and, to say why,
 * the innermost elements whose right edge is past the window.
 */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    // What scrolls inside a box of its own (a wide table) does not move the page.
    const clipped = (element: Element) => {
      for (let box = element.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== 'visible') return true;
      }
      return false;
    };
    const past = [...document.body.querySelectorAll('*')].filter(
      (element) => element.getBoundingClientRect().right > window.innerWidth + 0.5 && !clipped(element),
    );
    const innermost = past.filter((element) => !past.some((other) => other !== element && element.contains(other)));
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      elements: innermost.slice(0, 5).map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
    };
  });

describe.each(testDrivers().slice(0, 1))('every admin page at 1280 and 360 px in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let staff: { email: string; password: string };
  let newcomer: { email: string; oneTimePassword: string };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    const { key } = await seedShop(db, DEMO_CATALOG.shops[0]!);
    // Ledger entries of several kinds: an API adjustment and set beside the import's levels.
    const write = (path: string, method: string, body: unknown, idempotencyKey: string) =>
      call(server, `/api/v1${path}`, {
        method,
        key,
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
      });
    for (const [n, value] of [-0.25, -1.5, 0.75].entries()) {
      const adjusted = await write(
        '/inventory/adjustments',
        'POST',
        { locationId: '70001', adjustments: [{ variantId: '2001', delta: { value, unit: 'kg' } }] },
        `every-page-adjust-${n}`,
      );
      expect(adjusted.status).toBe(200);
    }
    staff = await staffWithPassword(db, DEMO_SHOP);
    newcomer = await createAdminUser(db, { shopDomain: DEMO_SHOP, email: 'newcomer@demo-shop.example' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
    await db?.close();
  });

  /** A page of its own at the viewport's size (cookies shared by the context). */
  const openAt = async (viewport: (typeof VIEWPORTS)[number]) => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.emulateMedia({ colorScheme: viewport.theme });
    return page;
  };

  /** Opens `path`, then checks the width, the accessibility scan and saves its screenshot. */
  const walk = async (page: Page, viewport: (typeof VIEWPORTS)[number], name: string, path: string) => {
    if (path) await page.goto(`${server.url}${path}`);
    await page.waitForLoadState('load');
    const sideways = await sidewaysOverflow(page);
    expect
      .soft(
        sideways.overflow,
        `${name} scrolls sideways at ${viewport.width} px (${viewport.theme}): ${sideways.elements.join(', ')}`,
      )
      .toBeLessThanOrEqual(0);
    expect
      .soft(await seriousAccessibilityViolations(page), `${name} at ${viewport.width} px (${viewport.theme})`)
      .toEqual([]);
    // The theme asked for is the one shown (the page's paper: #f6f7f9 light, #12161d dark).
    const paper = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect.soft(paper, `${name}'s paper`).toBe(viewport.theme === 'dark' ? 'rgb(18, 22, 29)' : 'rgb(246, 247, 249)');
    await screenshot(page, `every-page-${viewport.file}-${name}`);
  };

  test.each(VIEWPORTS)(
    'signed out at $width px ($theme): the home page, sign-in, its error, a missing page',
    async (viewport) => {
      const page = await openAt(viewport);
      await walk(page, viewport, 'home', '/');
      await walk(page, viewport, 'sign-in', '/admin/login');
      await page.getByLabel('Email').fill(staff.email);
      await page.getByLabel('Password').fill('not the password');
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
      await walk(page, viewport, 'sign-in-refused', '');
      await walk(page, viewport, 'not-found-signed-out', '/admin/no-such-page');
    },
  );

  test.each(VIEWPORTS)('the one-time password’s forced change at $width px ($theme)', async (viewport) => {
    const page = await openAt(viewport);
    await signIn(page, server, newcomer.email, newcomer.oneTimePassword);
    expect(new URL(page.url()).pathname).toBe('/admin/password');
    // Nothing to navigate to before the password is chosen.
    expect(await page.getByRole('navigation').count()).toBe(0);
    await walk(page, viewport, 'password-required', '');
  });

  test('when a phone edits labels, then the sticky save bar is one button high and no field reached by Tab is under it', async () => {
    const page = await openAt(VIEWPORTS[1]);
    await signIn(page, server, staff.email, staff.password);
    await page.goto(`${server.url}/admin/labels/fr`);
    const fields = page.locator('.labels-table input[type=text]');
    expect(await fields.count()).toBeGreaterThan(10);
    // The bar covers the rows scrolling under it: on a phone it holds the button alone.
    const bar = (await page.locator('.save-bar').boundingBox())!;
    const button = (await page.getByRole('button', { name: 'Save labels' }).boundingBox())!;
    expect(bar.height).toBeLessThan(button.height * 2);
    await fields.first().focus();
    const covered: string[] = [];
    for (let n = 0; n < 12; n += 1) {
      await page.keyboard.press('Tab');
      const hidden = await page.evaluate(() => {
        const field = document.activeElement!;
        const bar = document.querySelector('.save-bar')!.getBoundingClientRect();
        const box = field.getBoundingClientRect();
        return field.closest('.save-bar') || box.bottom <= bar.top ? null : field.id;
      });
      if (hidden) covered.push(hidden);
    }
    expect(covered).toEqual([]);
  });

  test.each(VIEWPORTS)(
    'every signed-in page at $width px ($theme)',
    async (viewport) => {
      const page = await openAt(viewport);
      await signIn(page, server, staff.email, staff.password);
      for (const [name, path] of SIGNED_IN_PAGES) await walk(page, viewport, name, path);
    },
    120_000,
  );
});
