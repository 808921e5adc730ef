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
  for (const error of schemaErrors) {
    if (error.keyword === 'boolean') continue; // mirrored by the additionalProperties error
    if (error.keyword === 'additionalProperties') {
      const field = String(error.params.additionalProperty ?? (error.params.additionalProperties as string[])?.[0]);
      const path = `${error.instancePath}/${escapePointer(field)}`;
      issues.set(path, { path, message: `unknown field '${field}'` });
      continue;
    }
    const path = error.instancePath || '/';
    if (!issues.has(path)) issues.set(path, { path, message: describe(error) });
  }
  return [...issues.values()];
}

function describe(error: SchemaError): string {
  if (error.keyword === 'required') {
    const field = error.params.missingProperty ?? (error.params.requiredProperties as string[])?.[0];
    return `required field '${String(field)}' is missing`;
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
