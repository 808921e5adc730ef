import { type TSchema, Type } from 'typebox';
import { ERROR_STATUS } from './errors.js';

/** The error object of every failed response: `{ code, message, details }`. */
export const ErrorBody = Type.Object({
  code: Type.Union(Object.keys(ERROR_STATUS).map((code) => Type.Literal(code))),
  message: Type.String(),
  details: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

/** `{ success, data, error, meta, requestId }` around a successful payload. */
export function SuccessEnvelope<Data extends TSchema, Meta extends TSchema>(
  data: Data,
  meta: Meta,
  options: { examples?: unknown[] } = {},
) {
  return Type.Object(
    {
      success: Type.Literal(true),
      data,
      error: Type.Null(),
      meta,
      requestId: Type.String({ examples: [EXAMPLE_REQUEST_ID] }),
    },
    options,
  );
}

/** The request id of the documentation's examples. */
export const EXAMPLE_REQUEST_ID = 'req_4458e8f4-cc9c-4b15-bf8c-1237a416b600';

/** A successful answer of the documentation's examples. */
export function exampleSuccess(data: unknown, meta: object = {}) {
  return { success: true, data, error: null, meta, requestId: EXAMPLE_REQUEST_ID };
}

export const ErrorEnvelope = Type.Object({
  success: Type.Literal(false),
  data: Type.Null(),
  error: ErrorBody,
  meta: Type.Object({}),
  requestId: Type.String(),
});
