import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currencyDigits, formatMinor, formatMoney } from '@tare/contracts';
import { Eta } from 'eta';
import type { FastifyReply } from 'fastify';
import { PAGE_CONTENT_SECURITY_POLICY } from '../../page-security.js';

/**
 * Views and styles in storefront-web/ beside this module; the bundle copies that folder beside
 * itself (scripts/bundle.mjs), so the same relative URL holds in src/ and in dist/.
 */
export const STOREFRONT_WEB_DIR = fileURLToPath(new URL('./storefront-web/', import.meta.url));
/**
 * The picker's browser script, served from the theme app extension's assets: the very file a
 * Shopify theme loads, found from the client package (the extension sits beside the packages).
 */
export const PICKER_ASSETS_DIR = fileURLToPath(
  new URL(
    '../../extensions/tare-measure-picker/assets/',
    `file://${dirname(createRequire(import.meta.url).resolve('@tare/client/package.json'))}/`,
  ),
);

// `<%= %>` escapes, so catalog texts (titles, labels) are shown, never run.
const eta = new Eta({ views: `${STOREFRONT_WEB_DIR}views`, autoEscape: true, cache: true });

const view = {
  /** An amount in minor units (the Ajax API's money) as the customer reads it. */
  money(minor: number, currency: string, locale: string): string {
    return formatMoney(formatMinor(BigInt(minor), currencyDigits(currency)), currency, locale);
  },
  /** JSON for a `<script type="application/json">` block: `<` escaped, so no text can close it. */
  json(value: unknown): string {
    return JSON.stringify(value).replaceAll('<', '\\u003c');
  },
  /** The properties a customer sees on a line: those whose names do not start with `_`. */
  visible(properties: Record<string, string>): [string, string][] {
    return Object.entries(properties).filter(([name]) => !name.startsWith('_'));
  },
};

export interface StorefrontPage {
  title: string;
  /** The storefront's root URL, `/sandbox/storefront/{domain}/`. */
  root: string;
  domain: string;
  locale: string;
  [field: string]: unknown;
}

/** Renders `name` inside the storefront's layout as a full HTML answer. */
export function sendStorefrontPage(reply: FastifyReply, status: number, name: string, data: StorefrontPage) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .send(eta.render(name, { ...data, view }));
}
