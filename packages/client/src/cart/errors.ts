/** Thrown by the cart helpers when their input cannot give a valid line; `reasons` lists every problem. */
export class CartInputError extends Error {
  readonly reasons: string[];

  constructor(reasons: string[]) {
    super(`Invalid cart input: ${reasons.join('; ')}`);
    this.name = 'CartInputError';
    this.reasons = reasons;
  }
}
