import type { ImportDocument } from '../services/catalog-import/import-document.js';

export const DEMO_SHOP = 'demo-shop.example';

const svcData = (type: string, unit: string, value: number) =>
  JSON.stringify({ measurement: { type, dimensions: [{ unit, value }] }, unitMeasurement: { unit, value: 1 } });

/** The built-in demo shop: one product of each measurement type, stock, and an open order. */
export const DEMO_CATALOG: ImportDocument = {
  shops: [
    {
      domain: DEMO_SHOP,
      currency: 'USD',
      defaultLocale: 'en',
      addonActive: true,
      settings: {
        mergeMatchingLineItems: true,
        rateLimit: { enabled: true, requestsPerMinute: 600 },
        storefront: { enabled: true },
        // The counter scale's labels: 21 + a 5-digit item + the weight in grams (5 digits, 0.001 kg).
        scaleBarcodes: [{ prefix: '21', itemDigits: 5, value: 'weight', valueDigits: 5, decimals: 3, unit: 'kg' }],
        // Prices per 1 kg, 1 L, 1 m and 1 m² beside every price, as the law asks (PRODUCT.md §21).
        unitPricing: { enabled: true },
      },
      labels: { fr: { unitPrice: 'Prix unitaire', unitPrice_weight_value_kg: '{Price}/{Quantity}' } },
      locations: [{ id: '70001', name: 'Main store' }],
      // One Comté wheel sold three ways (PRODUCT.md §20): its stock is kept once, on the wheel.
      stockItems: [
        {
          id: '6001',
          title: 'Comté wheel',
          measurementType: 'weight',
          unit: 'kg',
          inventory: [{ locationId: '70001', quantity: { value: 4.5, unit: 'kg' } }],
        },
      ],
      products: [
        {
          id: '1001',
          title: 'Coffee beans',
          measurementType: 'weight',
          variants: [
            {
              id: '2001',
              title: 'Arabica',
              price: '24.00',
              unitMeasurement: { unit: 'kg', value: 1 },
              settings: {
                onlineStore: {
                  displayStyle: 'number',
                  rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null },
                },
              },
              inventory: [{ locationId: '70001', quantity: { value: 12.75, unit: 'kg' } }],
              scaleItem: '10001',
            },
            {
              id: '2002',
              title: 'Robusta',
              price: '1.80',
              unitMeasurement: { unit: 'g', value: 100 },
              settings: {
                onlineStore: {
                  displayStyle: 'pills',
                  presets: [
                    { value: 250, label: '250 g' },
                    { value: 500, label: '500 g' },
                    { value: 1000, label: '1 kg', price: '16.00' },
                  ],
                },
              },
              inventory: [{ locationId: '70001', quantity: { value: 1250, unit: 'g' } }],
            },
          ],
        },
        {
          id: '1002',
          title: 'Satin ribbon',
          measurementType: 'length',
          variants: [
            {
              id: '2101',
              title: 'Red',
              price: '2.50',
              unitMeasurement: { unit: 'm', value: 1 },
              settings: {
                onlineStore: { displayStyle: 'number', rules: { min: 0.5, increment: 0.1, defaultValue: 1, max: 50 } },
              },
              inventory: [{ locationId: '70001', quantity: { value: 120.4, unit: 'm' } }],
            },
          ],
        },
        {
          id: '1003',
          title: 'Turf',
          measurementType: 'area',
          variants: [
            {
              id: '2201',
              title: 'Premium',
              price: '9.90',
              unitMeasurement: { unit: 'm2', value: 1 },
              settings: {
                onlineStore: { displayStyle: 'number', rules: { min: 1, increment: 0.5, defaultValue: 10, max: null } },
              },
              inventory: [{ locationId: '70001', quantity: { value: 300, unit: 'm2' } }],
            },
          ],
        },
        {
          id: '1004',
          title: 'Olive oil',
          measurementType: 'volume',
          variants: [
            {
              id: '2301',
              title: 'Extra virgin',
              price: '14.00',
              unitMeasurement: { unit: 'L', value: 1 },
              settings: {
                onlineStore: {
                  displayStyle: 'dropdown',
                  presets: [
                    { value: 0.5, label: '0.5 L' },
                    { value: 1, label: '1 L' },
                    { value: 3, label: '3 L', price: '39.00' },
                  ],
                },
              },
              inventory: [{ locationId: '70001', quantity: { value: 40.5, unit: 'L' } }],
            },
          ],
        },
        {
          id: '1005',
          title: 'Studio time',
          measurementType: 'time',
          variants: [
            {
              id: '2401',
              title: 'Recording room',
              price: '45.00',
              unitMeasurement: { unit: 'h', value: 1 },
              settings: {
                onlineStore: { displayStyle: 'number', rules: { min: 1, increment: 0.5, defaultValue: 2, max: 12 } },
              },
              inventory: [{ locationId: '70001', quantity: { value: 160, unit: 'h' } }],
            },
          ],
        },
        {
          // PRODUCT.md §19: sold per m² off a 4 m roll; the customer states the length, 10 % is added for waste.
          id: '1006',
          title: 'Carpet',
          measurementType: 'area',
          variants: [
            {
              id: '2501',
              title: 'Wool loop, 4 m roll',
              price: '29.00',
              unitMeasurement: { unit: 'm2', value: 1 },
              settings: {
                onlineStore: {
                  displayStyle: 'number',
                  rules: { min: 0.01, increment: 0.01, defaultValue: 4.4, max: null },
                  dimensions: [
                    { name: 'length', unit: 'm', rules: { min: 0.5, increment: 0.01, defaultValue: 1, max: 50 } },
                    { name: 'width', unit: 'm', fixed: 4 },
                  ],
                  overagePercent: 10,
                },
              },
              // The roll: 50 m × 4 m.
              inventory: [{ locationId: '70001', quantity: { value: 200, unit: 'm2' } }],
            },
          ],
        },
        {
          // PRODUCT.md §19: sold per m³, cut to length × width × height.
          id: '1007',
          title: 'Oak timber',
          measurementType: 'volume',
          variants: [
            {
              id: '2601',
              title: 'Kiln-dried beam',
              price: '1450.00',
              unitMeasurement: { unit: 'm3', value: 1 },
              settings: {
                onlineStore: {
                  displayStyle: 'number',
                  rules: { min: 0.0001, increment: 0.0001, defaultValue: 0.012, max: null },
                  dimensions: [
                    { name: 'length', unit: 'm', rules: { min: 0.5, increment: 0.1, defaultValue: 2.4, max: 6 } },
                    { name: 'width', unit: 'cm', rules: { min: 5, increment: 0.5, defaultValue: 10, max: 30 } },
                    { name: 'height', unit: 'cm', rules: { min: 2, increment: 0.5, defaultValue: 5, max: 30 } },
                  ],
                },
              },
              inventory: [{ locationId: '70001', quantity: { value: 4.5, unit: 'm3' } }],
            },
          ],
        },
        {
          id: '1008',
          title: 'Comté',
          measurementType: 'weight',
          variants: [
            {
              id: '2701',
              title: 'Loose, per 100 g',
              price: '2.80',
              unitMeasurement: { unit: 'g', value: 100 },
              stockItemId: '6001',
              settings: {
                onlineStore: {
                  displayStyle: 'number',
                  rules: { min: 100, increment: 50, defaultValue: 200, max: 2000 },
                },
              },
            },
            {
              id: '2702',
              title: '250 g pack',
              price: '6.50',
              unitMeasurement: { unit: 'g', value: 250 },
              stockItemId: '6001',
              settings: { onlineStore: { displayStyle: 'pills', presets: [{ value: 250, label: '250 g pack' }] } },
            },
            {
              id: '2703',
              title: 'Per kg',
              price: '25.00',
              unitMeasurement: { unit: 'kg', value: 1 },
              stockItemId: '6001',
              settings: {
                onlineStore: {
                  displayStyle: 'number',
                  rules: { min: 0.5, increment: 0.5, defaultValue: 1, max: null },
                },
              },
            },
          ],
        },
      ],
      orders: [
        {
          id: '5001',
          status: 'open',
          locationId: '70001',
          lineItems: [
            {
              id: '9001',
              productId: '1001',
              variantId: '2001',
              quantity: 2,
              price: '30.00',
              fulfilled: false,
              properties: [{ name: '_svc_data', value: svcData('weight', 'kg', 1.25) }],
            },
            {
              id: '9002',
              productId: '1002',
              variantId: '2101',
              quantity: 1,
              price: '7.50',
              fulfilled: false,
              properties: [{ name: '_svc_data', value: svcData('length', 'm', 3) }],
            },
          ],
        },
      ],
    },
  ],
};

/** What `tare demo --reset` overwrites, said before it asks; derived from the catalog above. */
export function demoResetWarning(): string[] {
  const [shop] = DEMO_CATALOG.shops;
  const products = shop!.products ?? [];
  const stock = products.flatMap((product) =>
    product.variants.flatMap((variant) =>
      (variant.inventory ?? []).map(({ quantity }) => `${variant.id} → ${quantity.value} ${quantity.unit}`),
    ),
  );
  const items = (shop!.stockItems ?? []).flatMap((item) =>
    (item.inventory ?? []).map(({ quantity }) => `${item.id} → ${quantity.value} ${quantity.unit}`),
  );
  return [
    `tare demo --reset puts ${DEMO_SHOP} back as the demo ships it. It overwrites:`,
    `  - the shop's settings, its labels and location ${shop!.locations?.map((l) => l.id).join(', ')};`,
    `  - products ${products.map((p) => p.id).join(', ')} and their variants;`,
    `  - the stock of each of their variants: ${stock.join(', ')} (each change booked in the ledger as an import);`,
    `  - the stock of stock item${items.length === 1 ? '' : 's'} ${items.join(', ')} (shared by the variants linked to it);`,
    `  - order ${shop!.orders?.map((o) => o.id).join(', ')} as the demo has it.`,
    'Its API keys, staff accounts and anything else added to it stay.',
  ];
}
