import type { ValidationIssue } from '@tare/contracts';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

interface SchemaError {
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
  return error.message;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Compiles a TypeBox schema into a checker that returns the value or the list of issues. */
export function compileChecker<T>(schema: TSchema) {
  const compiled = Compile(schema);
  return (value: unknown): { ok: true; value: T } | { ok: false; issues: ValidationIssue[] } =>
    compiled.Check(value)
      ? { ok: true, value: value as T }
      : { ok: false, issues: toIssues([...compiled.Errors(value)] as SchemaError[]) };
}
