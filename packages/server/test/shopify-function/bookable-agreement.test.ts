import { bookableMeasureIssue } from '@tare/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineMeasure } from '../../src/domain/bookable-line.js';
import { decimalFromJson } from '../../src/domain/decimal.js';

/**
 * The checkout function prices a measured line only when contracts' `bookableMeasureIssue` finds
 * nothing, so that nothing is charged for a measure Tare would not book; the server books an
 * order line only when its own `lineMeasure` (decimal.js) accepts it. For any positive measure
 * in the variant's unit, any quantity and unit value, the two must agree: a line the function
 * charges for is one the server books, and a line the server would skip is left at Shopify's
 * own price.
 */
const measure = fc.oneof(
  // Up to 12 decimal places, around the 9 Tare keeps.
  fc.tuple(fc.integer({ min: 1, max: 2_000_000_000 }), fc.integer({ min: 0, max: 12 })).map(([k, d]) => k / 10 ** d),
  // Near the 1e9 whole units a level holds.
  fc.tuple(fc.integer({ min: 999_999_000, max: 1_000_001_000 }), fc.boolean()).map(([k, half]) => (half ? k + 0.5 : k)),
  fc.constantFrom(1e-9, 1e-10, 0.123456789, 0.1234567891, 1e9, 1e9 + 1),
);

describe('bookableMeasureIssue and the server’s lineMeasure', () => {
  it('when a line is of any positive measure, quantity and unit value, then they agree whether it can be booked', () => {
    fc.assert(
      fc.property(
        measure,
        fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 3_000_000_000 })),
        fc.constantFrom('1', '0.25', '0.001', '10', '250', '1000'),
        (m, quantity, unitValue) => {
          const contracts = bookableMeasureIssue(m, quantity, unitValue, 'kg');
          const server = lineMeasure({ value: decimalFromJson(m), unit: 'kg' }, quantity, { unit: 'kg', unitValue });

          expect([m, quantity, unitValue, contracts === undefined]).toEqual([m, quantity, unitValue, server.ok]);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
