import { Ajv } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

// Query strings and path params arrive as text, so they are coerced ("50" → 50, "1.5" fails an
// integer). Bodies are JSON and are never coerced: a quantity sent as "1.5" must be rejected.
const common = { allErrors: true, strict: false, removeAdditional: false, useDefaults: true } as const;
const coercing = new Ajv({ ...common, coerceTypes: true });
const exact = new Ajv({ ...common, coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema);
