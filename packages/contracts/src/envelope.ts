import { type TSchema, Type } from 'typebox';
import { ERROR_STATUS } from './errors.js';

/** The error object of every failed response: `{ code, message, details }`. */
export const ErrorBody = Type.Object({
  code: Type.Union(Object.keys(ERROR_STATUS).map((code) => Type.Literal(code))),
  message: Type.String(),
  details: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

/** `{ success, data, error, meta, requestId }` around a successful payload. */
export function SuccessEnvelope<Data extends TSchema, Meta extends TSchema>(data: Data, meta: Meta) {
  return Type.Object({
    success: Type.Literal(true),
    data,
    error: Type.Null(),
    meta,
    requestId: Type.String(),
  });
}

export const ErrorEnvelope = Type.Object({
  success: Type.Literal(false),
  data: Type.Null(),
  error: ErrorBody,
  meta: Type.Object({}),
  requestId: Type.String(),
});
