import { Type } from 'typebox';

/** Platform REST ids travel as strings of 1–20 digits (PRODUCT.md §2). */
export const PLATFORM_ID_PATTERN = '^[0-9]{1,20}$';

/** A platform id whose documentation example is `example`. */
export function platformId(example: string) {
  return Type.String({
    pattern: PLATFORM_ID_PATTERN,
    description: "The platform's numeric REST id, as a string.",
    examples: [example],
  });
}

export const PlatformId = platformId('1001');
