import type { Queryable } from '../store/db.js';

/** One integer inventory level as the platform sees it. */
export interface PlatformLevel {
  locationId: string;
  variantId: string;
  available: number;
}

/**
 * The port through which Tare reads and writes the platform's integer inventory. `setLevels`
 * is a compare-and-set: each write names the value it expects to replace (null when the
 * platform has no level yet), so a concurrent change on the platform is detected, not lost.
 * `tx` lets the embedded platform write in Tare's own transaction; remote adapters ignore it.
 */
export interface PlatformGateway {
  readonly name: string;
  readLevels(
    tx: Queryable,
    shopId: string,
    keys: { locationId: string; variantId: string }[],
  ): Promise<PlatformLevel[]>;
  setLevels(tx: Queryable, shopId: string, writes: (PlatformLevel & { expected: number | null })[]): Promise<void>;
}

export class PlatformUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PlatformUnavailableError';
  }
}
