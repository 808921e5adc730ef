import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from './unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it.each([
    ['a refused socket', withCode('ECONNREFUSED')],
    ['a reset socket', withCode('ECONNRESET')],
    ['a connection exception (08006)', withCode('08006')],
    ['an administrator shutdown (57P01)', withCode('57P01')],
    ['too many connections (53300)', withCode('53300')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['a wrapped socket error', new Error('query failed', { cause: withCode('ECONNREFUSED') })],
    ['an aggregate of socket errors', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])],
  ])('when the error is %s, then the store is unavailable', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', withCode('23505')],
    ['a syntax error (42601)', withCode('42601')],
    ['a serialization failure (40001)', withCode('40001')],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('when the error is %s, then it is not an outage', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });
});
