import type { ValidationIssue } from '@tare/contracts';
import type { Dec } from '../../domain/decimal.js';
import type { InventoryOperation } from '../../domain/inventory.js';

/** The parts of an inventory write's entry (InventoryEntry) that are checked. */
interface CheckedEntry {
  variantId: string;
  value: number | Dec;
  path: string;
  field?: string;
}

/**
 * What every inventory write must satisfy, whoever sends it (the API, the admin's forms, the
 * inbox): each value finite (JSON `1e999` parses to Infinity, a form's 400 digits too), a set's
 * level at least 0 (the API's schema says it too, in the same words, but the admin has no
 * schema), and each variant once per write (PRODUCT.md §6). One issue per problem, all at once.
 * @example entryIssues('set', [{ variantId: '2001', value: -3, unit: 'kg', path: '', field: 'quantity' }])
 *   // [{ path: '/quantity/value', message: 'must be >= 0' }]
 */
export function entryIssues(operation: InventoryOperation, entries: readonly CheckedEntry[]): ValidationIssue[] {
  const seen = new Map<string, string>();
  const issues: ValidationIssue[] = [];
  for (const entry of entries) {
    const valueAt = entry.field ? `${entry.path}/${entry.field}/value` : entry.path;
    const { value } = entry;
    const finite = typeof value === 'number' ? Number.isFinite(value) : value.isFinite();
    if (!finite) issues.push({ path: valueAt, message: 'must be a finite number' });
    else if (operation === 'set' && (typeof value === 'number' ? value < 0 : value.lt(0))) {
      issues.push({ path: valueAt, message: 'must be >= 0' });
    }
    const first = seen.get(entry.variantId);
    if (first === undefined) seen.set(entry.variantId, entry.path);
    else {
      issues.push({
        path: `${entry.path}/variantId`,
        message: `variant '${entry.variantId}' already appears at ${first}`,
      });
    }
  }
  return issues;
}
