/**
 * Faults a test asks the fake Shopify to inject into its next answers. Each counts down as it is
 * used; a fault that names an operation only matches requests whose operation name or root field
 * is that name.
 */
export type InventoryWriteHook = () => void | Promise<void>;

export class FaultPlan {
  private lost: { remaining: number; operation?: string }[] = [];
  private errors: { remaining: number; status: number }[] = [];
  private throttled = 0;
  private inventoryWriteHooks: InventoryWriteHook[] = [];
  private metafieldRefusals: { remaining: number; code: string; message: string }[] = [];
  private variantUpdateRefusals: { remaining: number; code: string; message: string }[] = [];
  private cartTransformRefusals: { code: string; message: string }[] = [];
  private cartTransformHooks: (() => void)[] = [];
  private definitionRefusals: { code: string; message: string }[] = [];
  private definitionCreateHooks: (() => void)[] = [];

  /** The next `n` matching requests are applied, then their socket is destroyed: the client never hears back. */
  loseAnswers(n: number, options: { operation?: string } = {}): void {
    this.lost.push({ remaining: n, operation: options.operation });
  }

  /** The next `n` requests get this HTTP status (and nothing is applied). */
  serverErrors(n: number, status = 503): void {
    this.errors.push({ remaining: n, status });
  }

  /** The next `n` requests are answered THROTTLED whatever the bucket holds. */
  throttle(n: number): void {
    this.throttled += n;
  }

  /** Runs before the next inventorySetQuantities is applied (e.g. the merchant changes stock between read and write). */
  onNextInventoryWrite(fn: InventoryWriteHook): void {
    this.inventoryWriteHooks.push(fn);
  }

  /**
   * The next `n` metafield inputs of metafieldsSet get this user error (each refusal fails its
   * whole call, as Shopify's atomic mutation does), e.g. `refuseMetafields(1, 'INVALID_VALUE')`.
   */
  refuseMetafields(n: number, code = 'INVALID_VALUE', message = 'Value is invalid.'): void {
    this.metafieldRefusals.push({ remaining: n, code, message });
  }

  /**
   * The next `n` productVariantsBulkUpdate calls get this user error on their first input, so
   * nothing of them is updated, e.g. `refuseVariantUpdates(1, 'INVALID_INPUT')`.
   */
  refuseVariantUpdates(n: number, code = 'INVALID_INPUT', message = 'Input is invalid.'): void {
    this.variantUpdateRefusals.push({ remaining: n, code, message });
  }

  takeVariantUpdateRefusal(): { code: string; message: string } | undefined {
    const next = this.variantUpdateRefusals.find((r) => r.remaining > 0);
    if (!next) return undefined;
    next.remaining -= 1;
    return { code: next.code, message: next.message };
  }

  /** The next cartTransformCreate gets this user error, e.g. `refuseCartTransform('INPUT_INVALID')`. */
  refuseCartTransform(code: string, message = 'Failed to create cart transform due to invalid input.'): void {
    this.cartTransformRefusals.push({ code, message });
  }

  /** Runs before the next cartTransformCreate is checked, e.g. another connect registering the function first. */
  onNextCartTransformCreate(fn: () => void): void {
    this.cartTransformHooks.push(fn);
  }

  /**
   * The next metafieldDefinitionCreate or metafieldDefinitionUpdate gets this user error, e.g.
   * `refuseMetafieldDefinition('LIMIT_EXCEEDED')`; nothing is created or changed.
   */
  refuseMetafieldDefinition(code: string, message = 'The definition could not be saved.'): void {
    this.definitionRefusals.push({ code, message });
  }

  /** Runs before the next metafieldDefinitionCreate is checked, e.g. another connect creating it first. */
  onNextMetafieldDefinitionCreate(fn: () => void): void {
    this.definitionCreateHooks.push(fn);
  }

  takeMetafieldDefinitionCreateHook(): (() => void) | undefined {
    return this.definitionCreateHooks.shift();
  }

  takeMetafieldDefinitionRefusal(): { code: string; message: string } | undefined {
    return this.definitionRefusals.shift();
  }

  takeCartTransformHook(): (() => void) | undefined {
    return this.cartTransformHooks.shift();
  }

  takeCartTransformRefusal(): { code: string; message: string } | undefined {
    return this.cartTransformRefusals.shift();
  }

  takeMetafieldRefusal(): { code: string; message: string } | undefined {
    const next = this.metafieldRefusals.find((r) => r.remaining > 0);
    if (!next) return undefined;
    next.remaining -= 1;
    return { code: next.code, message: next.message };
  }

  takeServerError(): number | undefined {
    const next = this.errors.find((e) => e.remaining > 0);
    if (!next) return undefined;
    next.remaining -= 1;
    return next.status;
  }

  takeThrottle(): boolean {
    if (this.throttled === 0) return false;
    this.throttled -= 1;
    return true;
  }

  takeLostAnswer(names: readonly string[]): boolean {
    const next = this.lost.find((l) => l.remaining > 0 && (!l.operation || names.includes(l.operation)));
    if (!next) return false;
    next.remaining -= 1;
    return true;
  }

  takeInventoryWriteHook(): InventoryWriteHook | undefined {
    return this.inventoryWriteHooks.shift();
  }
}
