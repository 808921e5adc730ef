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
    expectTypeOf<Client.ScaleBarcode>().toEqualTypeOf<Contracts.ScaleBarcode>();
    expectTypeOf<Client.ScaleBarcodeFormat>().toEqualTypeOf<Contracts.ScaleBarcodeFormat>();
    expectTypeOf<Client.ScaleBarcodeDecoding>().toEqualTypeOf<Contracts.ScaleBarcodeDecoding>();
    expectTypeOf<Client.UnitPrice>().toEqualTypeOf<Contracts.UnitPrice>();
  });

  it('measurement rules (the cart helpers run the contracts checks behind their own declarations)', () => {
    expectTypeOf<Client.MeasurementRules>().toEqualTypeOf<Contracts.MeasurementRules>();
    expectTypeOf<Client.OnlineStoreSettings>().toEqualTypeOf<Contracts.OnlineStoreSettings>();
    expectTypeOf<Client.MeasurementRulesVariant>().toEqualTypeOf<Contracts.MeasurementRulesVariant>();
    expectTypeOf<Client.SettingsIssue>().toEqualTypeOf<Contracts.SettingsIssue>();
  });

  it('request bodies', () => {
    expectTypeOf<Client.AdjustmentsBody>().toEqualTypeOf<Contracts.AdjustmentsBody>();
    expectTypeOf<Client.LevelsBody>().toEqualTypeOf<Contracts.LevelsBody>();
    expectTypeOf<Client.OrderEditBody>().toEqualTypeOf<Contracts.OrderEditBody>();
  });

  it('inventory reads', () => {
    expectTypeOf<Client.InventoryLevel>().toEqualTypeOf<Contracts.InventoryLevel>();
    expectTypeOf<Client.InventoryLedgerEntry>().toEqualTypeOf<Contracts.InventoryLedgerEntry>();
    expectTypeOf<Client.InventoryLedgerParams>().toEqualTypeOf<Contracts.InventoryLedgerQuery>();
    expectTypeOf<Client.StockItemLevel>().toEqualTypeOf<Contracts.StockItemLevel>();
    // The SDK takes the path's stockItemId and the query's locationId in one object.
    type StockItemLevelsRequest = Contracts.StockItemParams & Contracts.StockItemLevelsQuery;
    expectTypeOf<Client.StockItemLevelsParams>().toEqualTypeOf<{
      [K in keyof StockItemLevelsRequest]: StockItemLevelsRequest[K];
    }>();
    // The SDK names the repeated `variantId` parameter `variantIds`.
    type LevelsQuery = Contracts.InventoryLevelsQuery;
    expectTypeOf<Client.InventoryLevelsParams>().toEqualTypeOf<{
      [K in keyof LevelsQuery as K extends 'variantId' ? 'variantIds' : K]: LevelsQuery[K];
    }>();
  });

  it('answers and error codes', () => {
    expectTypeOf<Client.OrderItem>().toEqualTypeOf<Contracts.OrderItem>();
    expectTypeOf<Client.ErrorCode>().toEqualTypeOf<Contracts.ErrorCode>();
  });
});
