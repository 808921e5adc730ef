import { Type } from 'typebox';

/** Platform REST ids travel as strings of 1–20 digits (PRODUCT.md §2). */
export const PLATFORM_ID_PATTERN = '^[0-9]{1,20}$';

export const PlatformId = Type.String({
  pattern: PLATFORM_ID_PATTERN,
  description: "The platform's numeric REST id, as a string.",
  examples: ['1001'],
});
