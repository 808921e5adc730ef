import type { FakeShopify } from './index.js';

/**
 * The catalog most fake-Shopify tests start from: location 70001 "Main store" and product 1001
 * "Coffee beans" with variants 2001 (kg, 20.00) and 2002 (100 g, 2.50), 10 of each available.
 * The ids match the test harness's Tare shop fixture (test/support/harness.ts).
 */
export function addCoffeeShop(fake: FakeShopify): void {
  fake.addLocation({ id: '70001', name: 'Main store' });
  fake.addProduct({
    id: '1001',
    title: 'Coffee beans',
    variants: [
      { id: '2001', title: '1 kg', price: '20.00', sku: 'BEANS-KG' },
      { id: '2002', title: '100 g', price: '2.50', sku: 'BEANS-100G' },
    ],
  });
  fake.setAvailable('70001', '2001', 10);
  fake.setAvailable('70001', '2002', 10);
}
