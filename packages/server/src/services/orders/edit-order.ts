import type { Actor } from '../../domain/actor.js';
import { lineMeasure } from '../../domain/bookable-line.js';
import {
  currencyDigits,
  factorIssues,
  type FactorsConfig,
  measureFromFactors,
  lineUnitPrice,
  type OrderEditBody,
  serializeSvcData,
  type ValidationIssue,
  withMeasurement,
} from '@tare/contracts';
import { Dec, decimalFromJson, toJsonNumber, toPlainString } from '../../domain/decimal.js';
import { consumption } from '../../domain/order-lines.js';
import { factorsOf } from '../../domain/variant-factors.js';
import { exactQuantity, type KeptQuantity, keptConversion } from '../../domain/quantity.js';
import { isUnitOfType, unitsOf } from '../../domain/units.js';
import { AppError, errors } from '../../errors.js';
import { type LineItemChange, type PlatformGateway, PlatformUnavailableError } from '../../platform/gateway.js';
import type { Db, Queryable } from '../../store/db.js';
import { insertOrderEdit } from '../../store/repositories/order-edits.js';
import { lockOrderBookings } from '../../store/repositories/order-bookings.js';
import { findShopById } from '../../store/repositories/shops.js';
import { type IdempotencyRequest, runIdempotent, type WriteResponse } from '../idempotent.js';
import { syncOrder } from '../events/sync-order.js';
import { type ManagedLine, managedLines, toOrderItem } from './managed-lines.js';
import { lineVariantsOf } from './read-order.js';

export interface OrderEdit {
  shopId: string;
  /** Who asked: an API key, or a staff member in the admin. */
  actor: Extract<Actor, { type: 'api_key' | 'staff' }>;
  orderId: string;
  body: OrderEditBody;
  requestId: string;
  idempotency?: IdempotencyRequest;
}

type Variants = Awaited<ReturnType<typeof lineVariantsOf>>;

/**
 * PATCH /orders/{id}: validates every edit before applying any, then in one transaction
 * rewrites the lines (`_svc_data` with unknown fields kept, price from the variant), books the
 * change in measured consumption on the order's location (ledger `order_edit`, platform level
 * following), and records the edit history. All or nothing.
 */
export function createOrderEditor(deps: { db: Db; gateway: PlatformGateway }) {
  return async function editOrder(edit: OrderEdit, render: (data: unknown) => string): Promise<WriteResponse> {
    try {
      return await runIdempotent(deps.db, edit.idempotency, async (tx) => {
        const data = await apply(tx, deps.gateway, edit);
        return { status: 200, body: render(data), requestId: edit.requestId };
      });
    } catch (error) {
      if (error instanceof PlatformUnavailableError) {
        throw new AppError('platform_unavailable', 'The platform did not accept the order edit; nothing was changed.');
      }
      throw error;
    }
  };
}
export type OrderEditor = ReturnType<typeof createOrderEditor>;

async function apply(tx: Queryable, gateway: PlatformGateway, edit: OrderEdit) {
  const { shopId, orderId, body } = edit;
  // Taken before the order is read, in the same order as the inbox takes it: no deadlock.
  await lockOrderBookings(tx, shopId, orderId);
  const order = await gateway.readOrder(tx, shopId, orderId, { forUpdate: true });
  if (!order) throw errors.notFound('order', orderId);
  const shop = await findShopById(tx, shopId);
  if (!shop?.addonActive) {
    throw new AppError('addon_inactive', "The shop's order-editing add-on is not active.", { orderId });
  }
  if (order.status !== 'open') {
    throw new AppError('unprocessable', `Order ${orderId} is ${order.status} and cannot be edited.`, {
      status: order.status,
    });
  }
  const requested = body.edits.flatMap((e) => (e.variantId ? [e.variantId] : []));
  const variants = await lineVariantsOf(tx, shopId, [...order.lineItems.map((l) => l.variantId), ...requested]);
  const managed = new Map(managedLines(order.lineItems, variants).map((m) => [m.line.id, m]));

  const issues: ValidationIssue[] = [];
  // Every edit is planned against the order as read, so a line edited twice in one PATCH would
  // book both consumption changes but keep only the last: the same line may appear only once.
  const seen = new Map<string, number>();
  const planned = body.edits.map((e, i) => {
    const first = seen.get(e.lineItemId);
    if (first !== undefined) {
      issues.push({
        path: `/edits/${i}/lineItemId`,
        message: `line item '${e.lineItemId}' already appears at /edits/${first}`,
      });
      return undefined;
    }
    seen.set(e.lineItemId, i);
    return planEdit(e, i, managed, variants, shop.currency, issues);
  });
  if (issues.length) throw errors.validation(issues, 'body');
  const fulfilled = planned.find((p) => p!.current.line.fulfilled);
  if (fulfilled) {
    throw new AppError('unprocessable', `Line ${fulfilled.current.line.id} is fulfilled and cannot be edited.`, {
      lineItemId: fulfilled.current.line.id,
    });
  }
  const plans = planned as NonNullable<(typeof planned)[number]>[];

  // What the platform did to the order before this edit (events not yet processed) is booked
  // under its own cause first, so that the edit books exactly its own change.
  const sync = { shopId, orderId, requestId: edit.requestId, idempotency: edit.idempotency };
  await syncOrder(tx, gateway, sync);
  await gateway.editOrder(
    tx,
    shopId,
    orderId,
    plans.map((p) => p.change),
    {
      notifyCustomer: body.notifyCustomer ?? false,
      staffNote: body.staffNote,
    },
  );
  await insertOrderEdit(tx, {
    shopId,
    orderId,
    actor: edit.actor,
    requestId: edit.requestId,
    edits: body.edits,
    notifyCustomer: body.notifyCustomer ?? false,
    staffNote: body.staffNote ?? null,
  });
  // A problem with a variant's booking (a level out of range) names the last edit touching it.
  const lastEdit = new Map<string, number>();
  plans.forEach((plan, i) => {
    for (const side of [plan.before, plan.after]) if (side.variantId) lastEdit.set(side.variantId, i);
  });
  // The edit itself, booked as the editor's.
  await syncOrder(tx, gateway, {
    ...sync,
    actor: edit.actor,
    pathOf: (variantId) => `/edits/${lastEdit.get(variantId) ?? 0}`,
  });
  const updated = await gateway.readOrder(tx, shopId, orderId);
  return {
    id: orderId,
    items: managedLines(updated!.lineItems, variants).map((m) => toOrderItem(m, shop.currency, variants)),
  };
}

interface Plan {
  current: ManagedLine;
  change: LineItemChange;
  /** Consumption before and after, each in its variant's unit (null variant: none). */
  before: { variantId: string | null; amount: Dec; unit: string };
  after: { variantId: string | null; amount: Dec; unit: string };
}

function planEdit(
  e: OrderEditBody['edits'][number],
  index: number,
  managed: Map<string, ManagedLine>,
  variants: Variants,
  currency: string,
  issues: ValidationIssue[],
): Plan | undefined {
  const at = `/edits/${index}`;
  const report = (path: string, message: string) => issues.push({ path: `${at}${path}`, message });
  const current = managed.get(e.lineItemId);
  if (!current)
    return void report('/lineItemId', `line item '${e.lineItemId}' is not a service-managed line of this order`);
  if (e.quantity === undefined && e.measurement === undefined && e.variantId === undefined) {
    return void report('', 'the edit changes nothing: give quantity, measurement or variantId');
  }
  const { line, measurement } = current;
  const type = measurement.type;
  const variantId = e.variantId ?? line.variantId;
  const variant = variantId ? variants.get(variantId) : undefined;
  if (e.variantId !== undefined && (!variant || variant.productId !== line.productId)) {
    return void report(
      '/variantId',
      `variant '${e.variantId}' is not a configured variant of product '${line.productId}'`,
    );
  }
  if (e.measurement) {
    if (e.measurement.value === undefined && e.measurement.dimensions === undefined) {
      return void report('/measurement', 'give value, or dimensions to compute it from');
    }
    // JSON 1e999 parses to Infinity, which the schema's "number > 0" lets through.
    if (e.measurement.value !== undefined && !Number.isFinite(e.measurement.value)) {
      return void report('/measurement/value', 'must be a finite number');
    }
    if (e.measurement.type !== type)
      return void report('/measurement/type', `must be '${type}', the product's measurement type`);
    if (!isUnitOfType(e.measurement.unit, type)) {
      return void report(
        '/measurement/unit',
        `unit '${e.measurement.unit}' is not a ${type} unit; use one of ${unitsOf(type).join(', ')}`,
      );
    }
  }
  // A managed line's unit is its variant's unit (_svc_data rule), so values are stored in it: a
  // converted one rounded half-even to 9 decimal places (PRODUCT.md §6); one with more decimals in
  // its own unit, or that would round to 0, is refused, never booked as something else (decision 34).
  const unit = variant?.unit ?? e.measurement?.unit ?? measurement.unit;
  const factors = e.measurement?.dimensions;
  const config = variant ? factorsOf(variant) : undefined;
  if (factors && !config?.dimensions?.length) {
    return void report(
      '/measurement/dimensions',
      `${variantLabel(variantId)} is sold by its quantity directly, not made from dimensions`,
    );
  }
  // PRODUCT.md §19: the value is what the factors make, unless the edit states it (then it must be that).
  let stated = e.measurement?.value;
  if (e.measurement && factors && stated === undefined) {
    // The factors alone first (a stand-in measure, whose mismatch is no issue yet).
    const issues = factorIssues([{ value: 1, unit: e.measurement.unit }, ...factors], config!).filter(
      (issue) => issue.reason !== 'measure_mismatch',
    );
    if (issues.length) return void issues.forEach((issue) => report(bodyPath(issue.path), issue.message));
    stated = measureFromFactors(factors, e.measurement.unit, config!).value;
  }
  const kept = lineValue(
    e.measurement && stated !== undefined
      ? exactQuantity(decimalFromJson(stated), e.measurement.unit, unit)
      : // The line's own measurement, converted when the edit moves it to a variant of another unit.
        keptConversion(measurement.value, measurement.unit, unit),
    unit,
  );
  if (!kept.ok) {
    return e.measurement
      ? void report('/measurement/value', kept.message)
      : void report('/variantId', `the line's measurement ${kept.message}; send a measurement in ${unit} with it`);
  }
  const value = kept.value;
  const quantity = e.quantity ?? line.quantity;
  const same =
    quantity === line.quantity &&
    variantId === line.variantId &&
    value.eq(measurement.value) &&
    unit === measurement.unit;
  if (same) return void report('', 'the edit changes nothing: the line already has these values');

  const before = {
    variantId: line.variantId,
    amount: consumption(line.quantity, measurement.value),
    unit: measurement.unit,
  };
  const after = { variantId, amount: consumption(quantity, value), unit };
  // An edit that Tare could not book is refused here, naming the edit; an order's own line that
  // it cannot book is skipped instead (sync-order.ts), since nobody is there to be told.
  const bookable = variant ? lineMeasure({ value, unit }, quantity, variant) : { ok: true as const };
  if (!bookable.ok) return void report('', bookable.detail);
  if (quantity === 0) return { current, change: { lineItemId: line.id, remove: true }, before, after };
  const svcData = withMeasurement(current.svcData, { type, value: toJsonNumber(value), unit });
  if (factors) svcData.measurement.dimensions = [svcData.measurement.dimensions[0], ...named(factors, config!)];
  // The line must stay measurement-based for its (maybe new) variant: factors and value agree.
  if (config) {
    const broken = factorIssues(svcData.measurement.dimensions, config);
    if (broken.length) return void broken.forEach((issue) => report(bodyPath(issue.path), issue.message));
  }
  if (variant && svcData.unitMeasurement)
    svcData.unitMeasurement = { ...svcData.unitMeasurement, unit: variant.unit, value: Number(variant.unitValue) };
  const properties = line.properties.map((p) =>
    p.name === '_svc_data' ? { name: p.name, value: serializeSvcData(svcData) } : p,
  );
  // A line whose measure and variant stay keeps the price it was charged (Shopify cannot
  // reprice an existing line, and the customer's price stands); a new measure is priced anew, as
  // the cart prices it (a preset's own price included).
  const remeasured = variantId !== line.variantId || !value.eq(measurement.value) || unit !== measurement.unit;
  const price =
    variant && remeasured ? lineUnitPrice(variant, toPlainString(value), currencyDigits(currency)) : line.price;
  return { current, change: { lineItemId: line.id, variantId, quantity, price, properties }, before, after };
}

/** A path of contracts' `factorIssues` (below `_svc_data`) as the edit's body names it. */
function bodyPath(path: string): string {
  const m = /^measurement\.dimensions\[(\d+)\](?:\.(\w+))?$/.exec(path);
  if (!m) return '/measurement';
  const k = Number(m[1]);
  if (k === 0) return '/measurement/value';
  return `/measurement/dimensions/${k - 1}${m[2] ? `/${m[2]}` : ''}`;
}

/** The factors as the line carries them, each named as its setting is. */
function named(factors: { value: number; unit: string; name?: string }[], config: FactorsConfig) {
  return factors.map((f, i) => ({ value: f.value, unit: f.unit, name: f.name ?? config.dimensions?.[i]?.name ?? '' }));
}

const variantLabel = (id: string | null) => (id ? `variant '${id}'` : 'a line without a variant');

/**
 * A measurement as the line will carry it: `_svc_data` holds it as a JSON number, from which later
 * bookings are computed, so it must be one that a JSON number represents exactly. A value sent in
 * the line's unit always is; a converted one with 9 decimals may not be (123456789.123456789 kg).
 */
function lineValue(kept: KeptQuantity, unit: string): KeptQuantity {
  if (!kept.ok || decimalFromJson(toJsonNumber(kept.value)).eq(kept.value)) return kept;
  return {
    ok: false,
    message: `is ${toPlainString(kept.value)} ${unit}, more significant digits than a JSON number holds`,
  };
}
