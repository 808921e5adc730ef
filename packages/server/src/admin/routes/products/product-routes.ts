import { formatMoney } from '@tare/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isMeasurementType, MEASUREMENT_TYPES, type MeasurementType, UNIT_CATALOGUE } from '../../../domain/units.js';
import { AppError, errors } from '../../../errors.js';
import { listVariantsPage, type ProductRecord } from '../../../store/repositories/catalog.js';
import { listFirstVariantPrices, listProductsPage } from '../../../store/repositories/product-list.js';
import { listStockLocations } from '../../../store/repositories/stock-overview.js';
import { findShopById, type Shop } from '../../../store/repositories/shops.js';
import type { AdminContext } from '../../admin-app.js';
import { previewCartLines } from './cart-line-preview.js';
import { field, problemsSummary } from '../../forms.js';
import { issueInWords } from '../../../messages/issue-words.js';
import { addVariant, applyProductEdit, type EditIssue, loadProduct, type StoredProduct } from './product-edits.js';
import { sendPage } from '../../render.js';
import { csrfTokenFor, requireStaff, staffActor } from '../../staff.js';
import {
  parseNewVariant,
  parseVariantForm,
  postedValues,
  presetRows,
  settingsProblems,
  storedValues,
  type VariantValues,
  otherIssue,
  variantIssues,
  typedAmount,
} from './variant-form.js';
import { factorIndexes, LENGTH_UNITS } from './dimension-form.js';
import { saveStockItemLink } from './stock-item-link.js';
import { findStockItems } from '../../../store/repositories/stock-items.js';
import { itemPath } from '../stock-items/item-page.js';

const PAGE_SIZE = 50;
/** Variants whose price the products list shows (and lets be edited) per product; the rest are on its page. */
const PRICED_VARIANTS = 5;

interface ProductParams {
  Params: { productId: string };
  Querystring: Record<string, string>;
}
interface NewParams {
  Params: { productId?: string };
}
interface VariantParams {
  Params: { productId: string; variantId: string };
  Querystring: Record<string, string>;
}

const DONE: Record<string, string> = {
  saved: 'Saved: the API, the storefront’s settings and the cart preview use the new settings now.',
  unchanged: 'Nothing to save: the settings were already these.',
  created: 'Created: the API and the storefront’s settings have it now. Set its stock at a location below.',
  linked: 'Stock item saved: the variant’s stock and its whole units on the platform follow it now.',
};

/** The new product form's own fields (the variant's are the variant forms'). */
const PRODUCT_FIELDS: Record<string, [name: string, label: string]> = {
  '/id': ['productId', 'Product id'],
  '/title': ['productTitle', 'Product title'],
  '/measurementType': ['measurementType', 'Measurement type'],
};

/** What a new variant's form starts with: a number input of 1 unit, a step of 1, no maximum. */
const NEW_VARIANT: VariantValues = {
  displayStyle: 'number',
  unitValue: '1',
  min: '1',
  increment: '1',
  defaultValue: '1',
};

/** Every unit of every type, for the selects (grouped by type). */
const UNIT_GROUPS = MEASUREMENT_TYPES.map((type) => ({ type, units: UNIT_CATALOGUE[type].units.map((u) => u.id) }));

interface FormState {
  status?: number;
  /** The stock item chosen in the link form, as posted. */
  link?: string;
  summary?: string;
  issues?: Record<string, string>;
  other?: string[];
  values?: VariantValues;
}

/**
 * /admin/products: the measured settings of each product and variant. A save is an import of the
 * product as stored with the edited fields replaced (services/catalog-import), so it is validated
 * exactly as `tare import` validates and written by the import's writer, which drops the caches.
 */
export function productRoutes(ctx: AdminContext) {
  const productPath = (id: string) => `/admin/products/${encodeURIComponent(id)}`;
  const variantPath = (productId: string, id: string) => `${productPath(productId)}/variants/${encodeURIComponent(id)}`;

  async function productPage(request: FastifyRequest<ProductParams>, reply: FastifyReply, state: FormState = {}) {
    const staff = request.staff!;
    const { productId } = request.params;
    const stored = await loadProduct(ctx.db, staff.shopId, productId);
    // The product's variants a page at a time: `after` is the last one shown, as `position:id`.
    const after = /^(\d+):(.+)$/.exec(request.query.after ?? '');
    const from = after ? { position: Number(after[1]), id: after[2]! } : undefined;
    const rows = await listVariantsPage(ctx.db, staff.shopId, productId, {
      direction: 'next',
      from,
      limit: PAGE_SIZE,
    });
    const variants = rows.slice(0, PAGE_SIZE);
    const last = variants.at(-1);
    return sendPage(reply, state.status ?? 200, 'product', {
      title: stored.product.title,
      current: 'products',
      scripts: ['products.js'],
      staff,
      csrfToken: csrfTokenFor(request, reply),
      product: stored.product,
      variantCount: stored.variants.length,
      variants,
      nextPage: rows.length > PAGE_SIZE && last ? `?after=${last.position}:${encodeURIComponent(last.id)}` : undefined,
      firstPage: from !== undefined,
      types: MEASUREMENT_TYPES,
      unitGroups: UNIT_GROUPS,
      values: state.values ?? { measurementType: stored.product.measurementType, variantUnit: '' },
      notice: DONE[request.query.done ?? ''],
      summary: state.summary,
      issues: state.issues ?? {},
      other: state.other ?? [],
      path: productPath(productId),
      variantPath: (id: string) => variantPath(productId, id),
      itemPath,
      stockItems: await findStockItems(ctx.db, staff.shopId),
    });
  }

  async function variantPage(
    request: FastifyRequest<VariantParams>,
    reply: FastifyReply,
    stored: StoredProduct,
    state: FormState = {},
  ) {
    const staff = request.staff!;
    const { productId, variantId } = request.params;
    const variant = stored.variants.find((v) => v.id === variantId)!;
    const values = state.values ?? storedValues(variant);
    // Levels are created by their first write: every location of the shop can be set from here.
    const locations = (await listStockLocations(ctx.db, staff.shopId)).map((location) => ({
      name: location.name,
      href: `/admin/inventory/${encodeURIComponent(location.id)}/${encodeURIComponent(variantId)}`,
    }));
    // The stock items it may sell from: those of its product's type (PRODUCT.md §20).
    const items = [...(await findStockItems(ctx.db, staff.shopId)).values()];
    return sendPage(reply, state.status ?? 200, 'product-variant', {
      title: `${stored.product.title} — ${variant.title}`,
      current: 'products',
      scripts: ['products.js'],
      staff,
      csrfToken: csrfTokenFor(request, reply),
      product: stored.product,
      variant,
      currency: stored.shop.currency,
      units: UNIT_CATALOGUE[stored.product.measurementType].units.map((u) => u.id),
      values,
      presets: presetRows(values),
      // The factors of an area or volume variant (PRODUCT.md §19), one fieldset each.
      factors: factorIndexes(stored.product.measurementType),
      lengthUnits: LENGTH_UNITS,
      preview: await preview(stored, variantId, values),
      locations,
      stockItems: items.filter((item) => item.measurementType === stored.product.measurementType),
      linkedItem: items.find((item) => item.id === variant.stockItemId),
      linkValue: state.link ?? variant.stockItemId ?? '',
      itemPath,
      notice: DONE[request.query.done ?? ''],
      summary: state.summary,
      issues: state.issues ?? {},
      other: state.other ?? [],
      productPath: productPath(productId),
      path: variantPath(productId, variantId),
    });
  }

  /** The products list, a page at a time, each product with its first variants' prices. */
  async function listPage(
    request: FastifyRequest<{ Querystring: Record<string, string> }>,
    reply: FastifyReply,
    state: FormState = {},
  ) {
    const staff = request.staff!;
    const search = (request.query.q ?? '').trim();
    const { after, before } = request.query;
    const rows = await listProductsPage(ctx.db, staff.shopId, {
      after: after || undefined,
      before: after ? undefined : before || undefined,
      search: search || undefined,
      limit: PAGE_SIZE,
    });
    const more = rows.length > PAGE_SIZE;
    const backwards = !after && !!before;
    const products = backwards ? rows.slice(rows.length - Math.min(rows.length, PAGE_SIZE)) : rows.slice(0, PAGE_SIZE);
    const link = (key: string, id: string) =>
      `?${new URLSearchParams({ ...(search ? { q: search } : {}), [key]: id }).toString()}`;
    const first = products[0];
    const last = products.at(-1);
    const shop = await findShopById(ctx.db, staff.shopId);
    const currency = shop?.currency ?? '';
    const prices = await listFirstVariantPrices(
      ctx.db,
      staff.shopId,
      products.map((product) => product.id),
      PRICED_VARIANTS,
    );
    return sendPage(reply, state.status ?? 200, 'products', {
      title: 'Products',
      current: 'products',
      staff,
      csrfToken: csrfTokenFor(request, reply),
      products,
      currency,
      variantsOf: (productId: string) =>
        prices
          .filter((variant) => variant.productId === productId)
          .map((variant) => ({
            ...variant,
            shown: `${formatMoney(variant.price, currency)} per ${variant.unitValue === '1' ? '' : `${variant.unitValue} `}${variant.unit}`,
          })),
      // Shopify owns a Shopify shop's prices (decision 87): there they are shown, not edited.
      pricesEditable: shop?.platform !== 'shopify',
      // Where a price form sends the staff member back to: this page of the list.
      back: new URLSearchParams(request.query as Record<string, string>).toString(),
      notice: request.query.done === 'price' ? 'Price saved: the API, the storefront and new carts use it now.' : '',
      summary: state.summary,
      issues: state.issues ?? {},
      values: state.values ?? {},
      search,
      nextPage: last && (backwards || more) ? link('after', last.id) : undefined,
      prevPage: first && (backwards ? more : !!after) ? link('before', first.id) : undefined,
      productPath,
      variantPath,
    });
  }

  /**
   * A variant's price from the products list: the stored product imported again with that price
   * (the import's validation, as on the product pages), by the signed-in staff member (logged).
   */
  async function setPrice(request: FastifyRequest<VariantParams>, reply: FastifyReply) {
    const staff = request.staff!;
    const { productId, variantId } = request.params;
    const stored = await storedVariant(request);
    if (stored.shop.platform === 'shopify') {
      throw new AppError(
        'unprocessable',
        'This shop’s prices are edited in Shopify’s admin; Tare takes them from there.',
      );
    }
    const typed = field(request.body, 'price');
    // Read as the new variant form reads its price (a decimal comma understood, decision 95).
    const price = typedAmount(typed);
    const back = field(request.body, 'back');
    const query = Object.fromEntries(new URLSearchParams(back));
    const result = await applyProductEdit(ctx, staff.shopId, productId, { prices: new Map([[variantId, price]]) });
    if (!result.ok) {
      const { fields, other } = variantIssues(result.issues, variantId, []);
      const issues = Object.fromEntries(
        Object.entries(fields).map(([name, message]) => [`${name}-${variantId}`, message]),
      );
      Object.assign(request, { query });
      return listPage(request as FastifyRequest<{ Querystring: Record<string, string> }>, reply, {
        status: result.status,
        values: { [`price-${variantId}`]: typed },
        ...refused(issues, other),
      });
    }
    request.log.info(
      { actor: staffActor(staff), productId, variantId, price, changed: result.changed },
      'variant price set in the admin',
    );
    const search = new URLSearchParams({ ...query, done: 'price' });
    return reply.redirect(`/admin/products?${search.toString()}#price-${encodeURIComponent(variantId)}`, 303);
  }

  /** The new product form, or the new variant form of a stored product. */
  async function newPage(request: FastifyRequest<NewParams>, reply: FastifyReply, state: FormState = {}) {
    const staff = request.staff!;
    const { productId } = request.params;
    const stored = productId === undefined ? undefined : await loadProduct(ctx.db, staff.shopId, productId);
    const shop = stored?.shop ?? (await findShopById(ctx.db, staff.shopId));
    const values = state.values ?? NEW_VARIANT;
    const title = stored ? `Add a variant to ${stored.product.title}` : 'Add a product';
    const path = stored ? `${productPath(stored.product.id)}/variants/new` : '/admin/products/new';
    return sendPage(reply, state.status ?? 200, 'product-new', {
      title,
      current: 'products',
      scripts: ['products.js'],
      staff,
      csrfToken: csrfTokenFor(request, reply),
      product: stored?.product,
      currency: shop?.currency ?? '',
      types: MEASUREMENT_TYPES,
      // A new product's type is chosen in the same form: every unit is offered, grouped by type.
      ...(stored
        ? { units: UNIT_CATALOGUE[stored.product.measurementType].units.map((u) => u.id) }
        : { unitGroups: UNIT_GROUPS }),
      values,
      presets: presetRows(values),
      summary: state.summary,
      issues: state.issues ?? {},
      other: state.other ?? [],
      submit: stored ? 'Add variant' : 'Create product',
      // A refused form says each problem beside its field, once: the preview waits for them to be fixed.
      preview:
        shop && !state.summary
          ? await unsavedPreview(shop, stored?.product, values)
          : { locale: '', lines: [], problems: [] },
      path,
      backPath: stored ? productPath(stored.product.id) : '/admin/products',
      backTitle: stored ? stored.product.title : 'Products',
    });
  }

  async function newPreview(
    request: FastifyRequest<NewParams & { Querystring: Record<string, string> }>,
    reply: FastifyReply,
  ) {
    const staff = request.staff!;
    const { productId } = request.params;
    const stored = productId === undefined ? undefined : await loadProduct(ctx.db, staff.shopId, productId);
    const shop = stored?.shop ?? (await findShopById(ctx.db, staff.shopId));
    if (!shop) throw errors.notFound('product', productId ?? '');
    const values = { ...postedValues(request.query), ...productValues(request.query) };
    return reply.header('cache-control', 'no-store').send(await unsavedPreview(shop, stored?.product, values));
  }

  /** Creates the posted variant (and product); the form again with each issue beside its field. */
  async function createVariant(request: FastifyRequest<NewParams>, reply: FastifyReply) {
    const staff = request.staff!;
    const values = { ...postedValues(request.body), ...productValues(request.body) };
    const parsed = parseNewVariant(values);
    if (!parsed.variant) return newPage(request, reply, { status: 400, values, ...refused(parsed.issues, []) });
    const { productId } = request.params;
    const target: { productId: string } | { product: ProductRecord } =
      productId !== undefined
        ? { productId }
        : {
            product: {
              id: values.productId!.trim(),
              title: values.productTitle!.trim(),
              // Any text: the import's validator names a type it does not know, beside the field.
              measurementType: values.measurementType as MeasurementType,
            },
          };
    const result = await addVariant(ctx, staff.shopId, target, parsed.variant);
    if (!result.ok) {
      const product = result.issues.filter((issue) => !issue.variantId && PRODUCT_FIELDS[issue.path]);
      const productFields = Object.fromEntries(
        product.map((issue) => {
          const [name, label] = PRODUCT_FIELDS[issue.path]!;
          return [name, issueInWords(label, issue.message)];
        }),
      );
      const rest = result.issues.filter((issue) => !product.includes(issue));
      const { fields, other } = variantIssues(rest, parsed.variant.id, parsed.presetRowOf);
      return newPage(request, reply, {
        status: result.status,
        values,
        ...refused({ ...productFields, ...fields }, other),
      });
    }
    const done = result.changed ? 'created' : 'unchanged';
    const owner = 'product' in target ? target.product.id : target.productId;
    return reply.redirect(`${variantPath(owner, parsed.variant.id)}?done=${done}`, 303);
  }

  /** The cart lines of what the form holds; what cannot be read yet is said instead. */
  async function preview(stored: StoredProduct, variantId: string, values: VariantValues) {
    const variant = stored.variants.find((v) => v.id === variantId)!;
    const parsed = parseVariantForm(values);
    const problems = settingsProblems(parsed, stored.product.measurementType, values);
    if (!parsed.settings || problems.length > 0) return { locale: '', lines: [], problems };
    // The form's factors and overage when it has their fields, else the stored ones.
    const posted = parsed.settings.settings.onlineStore;
    const onlineStore =
      'dimensions' in posted
        ? posted
        : {
            ...posted,
            ...(variant.dimensions ? { dimensions: variant.dimensions } : {}),
            ...(variant.overagePercent === null ? {} : { overagePercent: Number(variant.overagePercent) }),
          };
    return previewCartLines(ctx.db, stored.shop, stored.product, {
      id: variant.id,
      price: variant.price,
      ...parsed.settings,
      settings: { onlineStore },
    });
  }

  /**
   * The cart lines of a variant not saved yet (the new product and new variant forms), priced at
   * the price typed: what the first save would give a customer's cart.
   */
  async function unsavedPreview(shop: Shop, stored: ProductRecord | undefined, values: VariantValues) {
    const parsed = parseVariantForm(values);
    const problems = settingsProblems(parsed);
    const measurementType = stored?.measurementType ?? values.measurementType ?? '';
    if (!isMeasurementType(measurementType)) problems.push('Choose the product’s measurement type');
    if (!parsed.settings || problems.length > 0) return { locale: '', lines: [], problems };
    // Ids not typed yet are shown as 0: the preview is of the line, not of the ids.
    const id = (name: string) => values[name]?.trim() || '0';
    return previewCartLines(
      ctx.db,
      shop,
      { id: stored?.id ?? id('productId'), measurementType: measurementType as MeasurementType },
      { id: id('variantId'), price: typedAmount(values.price ?? ''), ...parsed.settings },
    );
  }

  /** The product and its variant of this shop; another shop's is not found, as in the API. */
  async function storedVariant(request: FastifyRequest<VariantParams>): Promise<StoredProduct> {
    const { productId, variantId } = request.params;
    const stored = await loadProduct(ctx.db, request.staff!.shopId, productId);
    if (!stored.variants.some((v) => v.id === variantId)) throw errors.notFound('variant', variantId, { productId });
    return stored;
  }

  return async (app: FastifyInstance) => {
    app.addHook('preValidation', requireStaff);

    app.get<{ Querystring: Record<string, string> }>('/admin/products', (request, reply) => listPage(request, reply));
    app.post<VariantParams>(
      '/admin/products/:productId/variants/:variantId/price',
      { preHandler: app.csrfProtection },
      setPrice,
    );

    app.get<NewParams>('/admin/products/new', (request, reply) => newPage(request, reply));
    app.post<NewParams>('/admin/products/new', { preHandler: app.csrfProtection }, (request, reply) =>
      createVariant(request, reply),
    );
    app.get<ProductParams>('/admin/products/:productId/variants/new', (request, reply) => newPage(request, reply));
    // The preview of what the new product or new variant form holds, for products.js (as below).
    app.get<NewParams & { Querystring: Record<string, string> }>(
      '/admin/products/new/preview',
      async (request, reply) => newPreview(request, reply),
    );
    app.get<NewParams & { Querystring: Record<string, string> }>(
      '/admin/products/:productId/variants/new/preview',
      async (request, reply) => newPreview(request, reply),
    );
    app.post<ProductParams>(
      '/admin/products/:productId/variants/new',
      { preHandler: app.csrfProtection },
      (request, reply) => createVariant(request, reply),
    );

    app.get<ProductParams>('/admin/products/:productId', (request, reply) => productPage(request, reply));

    app.post<ProductParams>(
      '/admin/products/:productId',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const staff = request.staff!;
        const { productId } = request.params;
        const type = field(request.body, 'measurementType');
        const variantUnit = field(request.body, 'variantUnit');
        const values = { measurementType: type, variantUnit };
        if (!isMeasurementType(type)) {
          const issues = { measurementType: `Measurement type must be one of: ${MEASUREMENT_TYPES.join(', ')}` };
          return productPage(request, reply, { status: 400, summary: problemsSummary(1), issues, values });
        }
        const result = await applyProductEdit(ctx, staff.shopId, productId, {
          measurementType: type,
          variantUnit: variantUnit || undefined,
        });
        if (!result.ok) {
          return productPage(request, reply, { status: result.status, values, ...productIssues(result.issues) });
        }
        return reply.redirect(`${productPath(productId)}?done=${result.changed ? 'saved' : 'unchanged'}`, 303);
      },
    );

    app.get<VariantParams>('/admin/products/:productId/variants/:variantId', async (request, reply) =>
      variantPage(request, reply, await storedVariant(request)),
    );

    app.post<VariantParams>(
      '/admin/products/:productId/variants/:variantId',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const staff = request.staff!;
        const { productId, variantId } = request.params;
        const stored = await storedVariant(request);
        const values = postedValues(request.body);
        const parsed = parseVariantForm(values);
        if (!parsed.settings) {
          return variantPage(request, reply, stored, { status: 400, values, ...refused(parsed.issues, []) });
        }
        const result = await applyProductEdit(ctx, staff.shopId, productId, {
          variants: new Map([[variantId, parsed.settings]]),
        });
        if (!result.ok) {
          const { fields, other } = variantIssues(result.issues, variantId, parsed.presetRowOf, values);
          return variantPage(request, reply, stored, { status: result.status, values, ...refused(fields, other) });
        }
        const done = result.changed ? 'saved' : 'unchanged';
        return reply.redirect(`${variantPath(productId, variantId)}?done=${done}`, 303);
      },
    );

    // Links the variant to a stock item or unlinks it: an import of the product stating the link.
    app.post<VariantParams>(
      '/admin/products/:productId/variants/:variantId/stock-item',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const { productId, variantId } = request.params;
        const stored = await storedVariant(request);
        const link = field(request.body, 'stockItemId');
        const result = await saveStockItemLink(ctx, request.staff!.shopId, productId, variantId, link);
        if (!result.ok) {
          const fields: Record<string, string> = {};
          const other: string[] = [];
          for (const issue of result.issues) {
            const beside = issue.variantId === variantId && ['/stockItemId', '/inventory'].includes(issue.path);
            // The guards' messages are sentences of their own (`variant 2001 holds stock …`).
            const words = /^must /.test(issue.message)
              ? issueInWords('Stock item', issue.message)
              : `Stock item: ${issue.message}`;
            if (beside) fields.stockItemId ??= words;
            else other.push(otherIssue(issue));
          }
          return variantPage(request, reply, stored, { status: result.status, link, ...refused(fields, other) });
        }
        const done = result.changed ? 'linked' : 'unchanged';
        return reply.redirect(`${variantPath(productId, variantId)}?done=${done}#stock-heading`, 303);
      },
    );

    // The preview of what the form holds, for products.js (JSON, so no markup from names is sent).
    app.get<VariantParams>('/admin/products/:productId/variants/:variantId/preview', async (request, reply) => {
      const stored = await storedVariant(request);
      const result = await preview(stored, request.params.variantId, postedValues(request.query));
      return reply.header('cache-control', 'no-store').send(result);
    });
  };
}

/** The form's refusal: the summary counts the problems, each is shown beside its field. */
function refused(issues: Record<string, string>, other: string[]): FormState {
  const count = Object.keys(issues).length + other.length;
  return {
    summary: other.length
      ? `Nothing was saved: ${count} problem${count === 1 ? '' : 's'} to fix:`
      : problemsSummary(count),
    issues,
    other,
  };
}

/** A new product's own fields, as typed. */
function productValues(body: unknown): Record<string, string> {
  return Object.fromEntries(['productId', 'productTitle', 'measurementType'].map((name) => [name, field(body, name)]));
}

/** The product form's fields: its type, and the unit given to the variants. */
function productIssues(list: EditIssue[]): FormState {
  const issues: Record<string, string> = {};
  const other: string[] = [];
  for (const issue of list) {
    if (issue.path === '/measurementType') issues.measurementType ??= issueInWords('Measurement type', issue.message);
    else if (issue.path === '/unitMeasurement/unit') {
      issues.variantUnit ??= issueInWords(`Unit of the variants: variant ${issue.variantId}`, issue.message);
    } else other.push(otherIssue(issue));
  }
  return refused(issues, other);
}
