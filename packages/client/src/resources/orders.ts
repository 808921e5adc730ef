import { send, type RequestOptions, type TransportConfig } from '../transport.js';
import type { OrderData, OrderEditBody, TareResult, TareWriteResult } from '../types.js';
import { sendWrite } from './writes.js';

export type OrderResult = TareResult<OrderData>;
export type OrderEditResult = TareWriteResult<OrderData>;

/** The service-managed line items of an order, and edits to them. */
export class OrdersResource {
  constructor(private readonly config: TransportConfig) {}

  /** `GET /orders/{id}`: `data.id` and `data.items`. */
  async get(orderId: string, options?: RequestOptions): Promise<OrderResult> {
    const response = await send(this.config, {
      method: 'GET',
      path: `/orders/${encodeURIComponent(orderId)}`,
      options,
    });
    return { data: response.body.data, meta: response.body.meta, requestId: response.requestId };
  }

  /** `PATCH /orders/{id}`, all-or-nothing; always sent with an Idempotency-Key so retries are safe. */
  edit(orderId: string, params: OrderEditBody, options?: RequestOptions): Promise<OrderEditResult> {
    const body: OrderEditBody = { edits: params.edits };
    if (params.notifyCustomer !== undefined) body.notifyCustomer = params.notifyCustomer;
    if (params.staffNote !== undefined) body.staffNote = params.staffNote;
    return sendWrite(this.config, { method: 'PATCH', path: `/orders/${encodeURIComponent(orderId)}`, body }, options);
  }
}
