import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { DECIMAL_INTEGER_PATTERN, unstorableTextErrors } from '../domain/validation.js';

// Query strings and path params arrive as text, so they are coerced ("50" → 50, "1.5" fails an
// integer). Bodies are JSON and are never coerced: a quantity sent as "1.5" must be rejected.
const common = { allErrors: true, strict: false, removeAdditional: false, useDefaults: true } as const;
const coercing = new Ajv({ ...common, coerceTypes: true });
const exact = new Ajv({ ...common, coerceTypes: false });

/** Keywords whose value is a schema or a list of schemas. */
const SUBSCHEMAS = new Set(['items', 'prefixItems', 'additionalProperties', 'anyOf', 'allOf', 'oneOf', 'not']);
/** Keywords whose value maps names to schemas. */
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs']);

/**
 * Ajv coerces any text `Number()` accepts ("0x10", "1e2", "+5", "5.0"), so every integer of a
 * query or path schema first has to match DECIMAL_INTEGER_PATTERN: `{ allOf: [pattern, integer] }`
 * checks the text before the second branch coerces it. A default stays outside, where Ajv
 * applies it. The route's own schema (and so the OpenAPI document) is left as it is.
 */
function decimalIntegersOnly(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (SUBSCHEMAS.has(keyword)) {
      copy[keyword] = Array.isArray(value) ? value.map(decimalIntegersOnly) : decimalIntegersOnly(value);
    } else if (SUBSCHEMA_MAPS.has(keyword) && typeof value === 'object' && value !== null) {
      copy[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, decimalIntegersOnly(sub)]));
    } else {
      copy[keyword] = value;
    }
  }
  if (copy.type !== 'integer') return copy;
  const { default: fallback, ...integer } = copy;
  return {
    ...(fallback === undefined ? {} : { default: fallback }),
    allOf: [{ pattern: DECIMAL_INTEGER_PATTERN }, integer],
  };
}

/** The schema's own check, then the one rule for text (`unstorableTextErrors`), in every part. */
function withTextRule(validate: ValidateFunction) {
  const check = (data: unknown): boolean => {
    const valid = validate(data);
    const text = unstorableTextErrors(data);
    check.errors = null;
    if (valid && text.length === 0) return true;
    check.errors = [...(validate.errors ?? []), ...text] as ErrorObject[];
    return false;
  };
  check.errors = null as ErrorObject[] | null;
  return check;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  withTextRule(httpPart === 'body' ? exact.compile(schema) : coercing.compile(decimalIntegersOnly(schema) as object));
