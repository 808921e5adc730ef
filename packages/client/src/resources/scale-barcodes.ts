import { send, type RequestOptions, type TransportConfig } from '../transport.js';
import type { ScaleBarcode, TareResult } from '../types.js';

export type ScaleBarcodeResult = TareResult<ScaleBarcode>;

/** `GET /scale-barcodes/{code}`: the variant and measurement a scale label carries, by the shop's formats. */
export class ScaleBarcodesResource {
  constructor(private readonly config: TransportConfig) {}

  async get(code: string, options?: RequestOptions): Promise<ScaleBarcodeResult> {
    const response = await send(this.config, {
      method: 'GET',
      path: `/scale-barcodes/${encodeURIComponent(code)}`,
      options,
    });
    return { data: response.body.data, meta: response.body.meta, requestId: response.requestId };
  }
}
