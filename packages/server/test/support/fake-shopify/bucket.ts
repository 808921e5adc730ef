/**
 * The leaky bucket of one app on one store (https://shopify.dev/docs/api/usage/limits#the-leaky-bucket-algorithm):
 * `maximumAvailable` points, refilled continuously at `restoreRate` points a second. A query runs
 * only when the bucket holds its requested cost; afterwards the difference between requested and
 * actual cost is given back. Standard plan: 100 points/s
 * (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits) and a 2,000-point bucket
 * (the `maximumAvailable` Shopify reports to a Basic Shopify store, e.g. the recorded answers in
 * microsoft/ALAppExtensions Apps/W1/Shopify/test).
 */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export class LeakyBucket {
  private available: number;
  private lastAt: number;

  constructor(
    readonly maximumAvailable: number,
    readonly restoreRate: number,
    private readonly now: () => number,
  ) {
    this.available = maximumAvailable;
    this.lastAt = now();
  }

  private refill(): void {
    const at = this.now();
    this.available = Math.min(this.maximumAvailable, this.available + ((at - this.lastAt) / 1000) * this.restoreRate);
    this.lastAt = at;
  }

  /** Takes `cost` points if the bucket holds them. */
  take(cost: number): boolean {
    this.refill();
    if (cost > this.available) return false;
    this.available -= cost;
    return true;
  }

  giveBack(points: number): void {
    this.refill();
    this.available = Math.min(this.maximumAvailable, this.available + points);
  }

  /** Empties the bucket (a fault: the app spent its points elsewhere). */
  empty(): void {
    this.refill();
    this.available = 0;
  }

  status(): ThrottleStatus {
    this.refill();
    return {
      maximumAvailable: this.maximumAvailable,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.restoreRate,
    };
  }
}
