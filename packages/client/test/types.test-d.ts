// The client's plain interfaces must equal the route schemas they mirror. Vitest runs this file
// through the type checker (typecheck mode, vitest.config.ts), so a drift fails `npm test`.
import type * as Contracts from '@tare/contracts';
import { describe, expectTypeOf, it } from 'vitest';
import type * as Client from '../src/index.js';

describe('client types mirror the contracts', () => {
  it('catalog shapes', () => {
    expectTypeOf<Client.Variant>().toEqualTypeOf<Contracts.Variant>();
    expectTypeOf<Client.Product>().toEqualTypeOf<Contracts.Product>();
    expectTypeOf<Client.PaginationMeta>().toEqualTypeOf<Contracts.PaginationMeta>();
    expectTypeOf<Client.MeasurementType>().toEqualTypeOf<Contracts.MeasurementType>();
  });

  it('request bodies', () => {
    expectTypeOf<Client.AdjustmentsBody>().toEqualTypeOf<Contracts.AdjustmentsBody>();
    expectTypeOf<Client.LevelsBody>().toEqualTypeOf<Contracts.LevelsBody>();
    expectTypeOf<Client.OrderEditBody>().toEqualTypeOf<Contracts.OrderEditBody>();
  });

  it('answers and error codes', () => {
    expectTypeOf<Client.OrderItem>().toEqualTypeOf<Contracts.OrderItem>();
    expectTypeOf<Client.ErrorCode>().toEqualTypeOf<Contracts.ErrorCode>();
  });
});
