import type { ValidationIssue } from '@tare/contracts';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/**
 * Turns JSON-schema errors (TypeBox or Ajv, same shape) into `{ path, message }` issues: one per
 * problem, unknown fields reported at their own path, the noise of union branches dropped.
 */
export function toIssues(schemaErrors: readonly SchemaError[]): ValidationIssue[] {
  const issues = new Map<string, ValidationIssue>();
  const allowed = new Map<string, unknown[]>();
  for (const error of schemaErrors) {
    if (error.keyword === 'boolean') continue; // mirrored by the additionalProperties error
    if (error.keyword === 'additionalProperties') {
      const field = String(error.params.additionalProperty ?? (error.params.additionalProperties as string[])?.[0]);
      const path = `${error.instancePath}/${escapePointer(field)}`;
      issues.set(path, { path, message: `unknown field '${field}'` });
      continue;
    }
    if (error.keyword === 'required') {
      // Point at the missing field itself, as a client would look for it.
      const field = String(error.params.missingProperty ?? (error.params.requiredProperties as string[])?.[0]);
      const path = `${error.instancePath}/${escapePointer(field)}`;
      issues.set(path, { path, message: 'is required' });
      continue;
    }
    const path = error.instancePath || '/';
    if (error.keyword === 'const') {
      // A union of literals fails once per literal: gather them into one "must be one of".
      const values = allowed.get(path) ?? [];
      values.push(error.params.allowedValue ?? error.params.const);
      allowed.set(path, values);
      issues.set(path, { path, message: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}` });
      continue;
    }
    if (!issues.has(path)) issues.set(path, { path, message: describe(error) });
  }
  return [...issues.values()];
}

function describe(error: SchemaError): string {
  if (error.keyword === 'enum') {
    return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (error.keyword === 'pattern' && error.params.pattern === '^[0-9]{1,20}$') {
    return 'must be a numeric id string of 1 to 20 digits';
  }
  if (error.keyword === 'pattern' && error.params.pattern === DECIMAL_INTEGER_PATTERN) {
    return 'must be integer';
  }
  return error.message;
}

/**
 * An integer in a query string or a path is written in decimal digits, as in JSON: `0x10`, `0b11`,
 * `0o7`, `1e2`, `+5`, `5.0` and ` 5` are not integers, though `Number()` reads them as such.
 */
export const DECIMAL_INTEGER_PATTERN = '^-?[0-9]+$';

/**
 * NUL (U+0000), which PostgreSQL refuses in `text` and `jsonb`, or a lone UTF-16 surrogate, which
 * `jsonb` refuses and `text` silently turns into U+FFFD.
 */
const UNSTORABLE_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** What may be UNSTORABLE_TEXT: a NUL or any surrogate (a well-formed pair is fine). */
const SUSPECT_TEXT = /[\0\uD800-\uDFFF]/;

function unstorable(text: string): string | undefined {
  if (!UNSTORABLE_TEXT.test(text)) return undefined;
  return text.includes('\0')
    ? 'must not contain the NUL character (U+0000)'
    : 'must be well-formed Unicode (it contains a lone surrogate)';
}

/** Whether any string or object key in `value` may be unstorable; no paths are built. */
function mayHoldUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (SUSPECT_TEXT.test(item)) return true;
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) pending.push(item[i]);
    } else if (typeof item === 'object' && item !== null) {
      for (const key of Object.keys(item)) {
        if (SUSPECT_TEXT.test(key)) return true;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * The one rule for text, applied to every request part and every import file whatever its
 * schema: each string, and each object key, must be storable as sent (see UNSTORABLE_TEXT), so
 * that bad text is a 400 naming its JSON pointer instead of a database error. The walks are
 * iterative, so a deeply nested body cannot exhaust the stack, and the one that builds
 * pointers runs only when a suspect character was found.
 * @example unstorableTextErrors({ staffNote: 'a\u0000b' })[0]?.instancePath // '/staffNote'
 */
export function unstorableTextErrors(value: unknown): SchemaError[] {
  if (!mayHoldUnstorableText(value)) return [];
  const found: SchemaError[] = [];
  const report = (instancePath: string, message: string) =>
    found.push({ keyword: 'text', instancePath, params: {}, message });
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      const problem = unstorable(item);
      if (problem) report(path, problem);
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], `${path}/${i}`]);
    } else if (typeof item === 'object' && item !== null) {
      const keys = Object.keys(item);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const at = `${path}/${escapePointer(key)}`;
        const problem = unstorable(key);
        if (problem) report(at, `has a field name that ${problem}`);
        pending.push([(item as Record<string, unknown>)[key], at]);
      }
    }
  }
  return found;
}

/** One segment of a JSON pointer (RFC 6901): `~` and `/` escaped. */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Compiles a TypeBox schema into a checker that returns the value or the list of issues; text
 * that could not be stored as sent is an issue whatever the schema says (`unstorableTextErrors`).
 */
export function compileChecker<T>(schema: TSchema) {
  const compiled = Compile(schema);
  return (value: unknown): { ok: true; value: T } | { ok: false; issues: ValidationIssue[] } => {
    const schemaErrors = compiled.Check(value) ? [] : ([...compiled.Errors(value)] as SchemaError[]);
    const errors = [...schemaErrors, ...unstorableTextErrors(value)];
    return errors.length ? { ok: false, issues: toIssues(errors) } : { ok: true, value: value as T };
  };
}
