import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCursorCodec } from './cursor.js';
import { type LedgerCursor, decodeLedgerCursor, encodeLedgerCursor } from './ledger-cursor.js';

const cursor: LedgerCursor = {
  shopId: '7',
  locationId: '70001',
  variantId: '2001',
  direction: 'next',
  entryId: '4127',
};

describe('ledger cursors', () => {
  const codec = createCursorCodec(randomBytes(32));

  it('when a ledger cursor is encoded, then it decodes to the same level, direction and entry', () => {
    expect(decodeLedgerCursor(codec, encodeLedgerCursor(codec, cursor))).toEqual(cursor);
    const prev = { ...cursor, direction: 'prev' as const };
    expect(decodeLedgerCursor(codec, encodeLedgerCursor(codec, prev))).toEqual(prev);
  });

  it('when a product cursor is given, then it is not a ledger cursor', () => {
    const product = codec.encode({ shopId: '7', productId: '1001', direction: 'next', position: 1, id: '2001' });
    expect(decodeLedgerCursor(codec, product)).toBeUndefined();
  });

  it('when a ledger cursor is given as a product cursor, then it names no product id', () => {
    expect(codec.decode(encodeLedgerCursor(codec, cursor))?.productId).not.toMatch(/^[0-9]+$/);
  });

  it('when the text is not one of our cursors, then it is rejected', () => {
    const text = encodeLedgerCursor(codec, cursor);
    expect(decodeLedgerCursor(codec, `${text[0] === 'A' ? 'B' : 'A'}${text.slice(1)}`)).toBeUndefined();
    expect(decodeLedgerCursor(createCursorCodec(randomBytes(32)), text)).toBeUndefined();
    expect(decodeLedgerCursor(codec, 'not a cursor')).toBeUndefined();
  });
});
