import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type CursorPayload, createCursorCodec } from './cursor.js';

const payload: CursorPayload = { shopId: '1', productId: '1001', direction: 'next', position: 3, id: '2004' };

describe('cursor codec', () => {
  const codec = createCursorCodec(randomBytes(32));

  it('when a cursor is encoded, then it decodes to the same payload', () => {
    expect(codec.decode(codec.encode(payload))).toEqual(payload);
    const prev = { ...payload, direction: 'prev' as const };
    expect(codec.decode(codec.encode(prev))).toEqual(prev);
  });

  it('when a cursor is encoded, then it does not show its content in clear text', () => {
    expect(codec.encode(payload)).not.toContain('1001');
  });

  it('when one character of the body is changed, then it is rejected', () => {
    const cursor = codec.encode(payload);
    const tampered = `${cursor[0] === 'A' ? 'B' : 'A'}${cursor.slice(1)}`;
    expect(codec.decode(tampered)).toBeUndefined();
  });

  it('when a cursor was issued with another secret, then it is rejected', () => {
    const other = createCursorCodec(randomBytes(32));
    expect(codec.decode(other.encode(payload))).toBeUndefined();
  });

  it.each(['', '.', 'abc', 'abc.def', 'a.b.c', '%%%.%%%', 'A'.repeat(60)])(
    'when the text is %j, then it is rejected',
    (text) => {
      expect(codec.decode(text)).toBeUndefined();
    },
  );
});
