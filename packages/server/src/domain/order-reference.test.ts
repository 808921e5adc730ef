import { describe, expect, it } from 'vitest';
import { describeCustomer } from './order-reference.js';

describe('describeCustomer', () => {
  it.each([
    ['a name and an e-mail', { name: 'Ada Lovelace', email: 'ada@example.com' }, 'Ada Lovelace <ada@example.com>'],
    ['a name only', { name: 'Ada Lovelace', email: null }, 'Ada Lovelace'],
    ['an e-mail only', { name: null, email: 'ada@example.com' }, 'ada@example.com'],
    // Shopify's displayName falls back to the e-mail: said once.
    ['a name that is the e-mail', { name: 'ada@example.com', email: 'ada@example.com' }, 'ada@example.com'],
    ['neither', { name: null, email: null }, 'No customer'],
    ['no customer (a guest)', null, 'No customer'],
    ['a customer not asked for', undefined, 'No customer'],
  ])('when the order has %s, then the admin writes it as expected', (_what, customer, written) => {
    expect(describeCustomer(customer)).toBe(written);
  });
});
