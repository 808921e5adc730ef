import type { ShopStorefrontConfig, VariantMeasurementConfig } from '@tare/contracts';
import { expectTypeOf, test } from 'vitest';
import type { PickerShopConfig, PickerVariantConfig } from '../src/picker/index.js';

// The picker's own copies of the storefront documents' types (the package carries no workspace
// types) stay the shape @tare/contracts writes.
test('the picker reads the documents the server writes', () => {
  expectTypeOf<VariantMeasurementConfig>().toEqualTypeOf<PickerVariantConfig>();
  expectTypeOf<ShopStorefrontConfig>().toEqualTypeOf<PickerShopConfig>();
});
