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

/**
 * The demo shop's carpet (PRODUCT.md §19) beside the coffee: product 1006 "Carpet" with variant
 * 2501 (1 m², 29.00), sold per m² off a 4 m roll; stocked at 70001 with nothing available, so
 * what Shopify shows is what Tare projects once it imports the carpet (src/cli/demo-catalog.ts).
 */
export function addCarpet(fake: FakeShopify): void {
  fake.addProduct({
    id: '1006',
    title: 'Carpet',
    variants: [{ id: '2501', title: 'Wool loop, 4 m roll', price: '29.00', sku: 'CARPET-M2' }],
  });
  fake.setAvailable('70001', '2501', 0);
}
