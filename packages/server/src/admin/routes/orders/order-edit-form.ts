import { OrderEditBody, type OrderItem, type ValidationIssue } from '@tare/contracts';
import type { TSchema } from 'typebox';
import { type SchemaError, toIssues } from '../../../domain/validation.js';
import { errors } from '../../../errors.js';
import { validatorCompiler } from '../../../http/validator.js';
import { field } from '../../forms.js';
import { readTypedNumber } from '../../typed-number.js';

/**
 * The order edit form: one row per service-managed line, each carrying the values it was shown
 * with (`was-…`), so that the PATCH body a post makes depends on the form alone. Posted twice
 * (a double click), it makes the same body under the same Idempotency-Key and is replayed.
 */

const LINE_ID = /^[0-9]{1,20}$/;

/**
 * The API's own validator for one part of a request (Ajv, as the routes compile it), so the admin
 * names a bad field in the API's words: undefined when `value` passes, else its issues.
 */
export function apiValidator(schema: TSchema, httpPart: 'body' | 'params') {
  const check = validatorCompiler({ schema, httpPart, method: 'POST', url: '' }) as ((value: unknown) => boolean) & {
    errors: SchemaError[] | null;
  };
  return (value: unknown): ValidationIssue[] | undefined => (check(value) ? undefined : toIssues(check.errors ?? []));
}

const bodyIssues = apiValidator(OrderEditBody, 'body');

/** The hidden values a line row carries: what the line was when the form was shown. */
export function shownValues(item: OrderItem) {
  return {
    quantity: String(item.quantity),
    value: String(item.measurement.value),
    unit: item.measurement.unit,
    type: item.measurement.type,
    variant: item.variantId ?? '',
  };
}

/**
 * The PATCH body a posted form asks for: an edit for each line whose fields differ from what it
 * was shown with (a ticked "remove" is quantity 0). `lineOf[i]` is the line of `edits[i]`, to
 * put each issue beside its field; `body()` throws the API's 400 for a field that is not a
 * number or a body the API's schema refuses.
 */
export function editFromForm(form: unknown): { lineOf: string[]; body(): OrderEditBody } {
  const lineIds = field(form, 'lineIds').split(' ').filter(Boolean);
  if (!lineIds.every((id) => LINE_ID.test(id))) throw errors.badRequest('The form could not be read; reload the page.');
  const edits: Record<string, unknown>[] = [];
  const lineOf: string[] = [];
  const issues: { path: string; message: string }[] = [];
  for (const id of lineIds) {
    const sent = (name: string) => field(form, `${name}-${id}`).trim();
    const was = (name: string) => field(form, `was-${name}-${id}`);
    const at = `/edits/${edits.length}`;
    const number = (name: string, path: string): number | undefined => {
      const read = readTypedNumber(sent(name));
      if (read.ok) return Number(read.text);
      issues.push({ path: `${at}${path}`, message: read.hint });
      return undefined;
    };
    const edit: Record<string, unknown> = { lineItemId: id };
    if (field(form, `remove-${id}`)) edit.quantity = 0;
    else if (sent('quantity') !== was('quantity')) edit.quantity = number('quantity', '/quantity');
    if (sent('value') !== was('value') || sent('unit') !== was('unit')) {
      edit.measurement = { type: was('type'), value: number('value', '/measurement/value'), unit: sent('unit') };
    }
    if (sent('variant') && sent('variant') !== was('variant')) edit.variantId = sent('variant');
    if (Object.keys(edit).length === 1) continue;
    edits.push(edit);
    lineOf.push(id);
  }
  const staffNote = field(form, 'staffNote').trim();
  return {
    lineOf,
    body() {
      if (issues.length) throw errors.validation(issues, 'body');
      if (edits.length === 0) {
        throw errors.badRequest(
          "Nothing to change: change a line's measurement, quantity or variant, or remove a line.",
        );
      }
      const body = {
        edits,
        notifyCustomer: field(form, 'notifyCustomer') === 'on',
        ...(staffNote ? { staffNote } : {}),
      };
      const refused = bodyIssues(body);
      if (refused) throw errors.validation(refused, 'body');
      return body as OrderEditBody;
    },
  };
}

/** The form field an issue of the PATCH body belongs to (`/edits/0/quantity` → `quantity-9001`). */
export function fieldOfIssue(lineOf: string[]) {
  return (path: string): string => {
    const [, top, index, name, sub] = path.split('/');
    if (top !== 'edits') return top ?? '';
    const line = lineOf[Number(index)];
    if (line === undefined) return '';
    if (name === 'quantity') return `quantity-${line}`;
    if (name === 'variantId') return `variant-${line}`;
    if (name === 'measurement') return sub === 'unit' ? `unit-${line}` : `value-${line}`;
    return `line-${line}`;
  };
}

/** How each field is named before its message (`Quantity must be >= 0`). */
export function issueLabels(lineIds: string[]): Record<string, string> {
  const labels: Record<string, string> = { staffNote: 'Staff note' };
  for (const id of lineIds) {
    Object.assign(labels, {
      [`quantity-${id}`]: 'Quantity',
      [`value-${id}`]: 'Measurement',
      [`unit-${id}`]: 'Unit',
      [`variant-${id}`]: 'Variant',
      [`line-${id}`]: `Line ${id}:`,
    });
  }
  return labels;
}
