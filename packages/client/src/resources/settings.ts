import { send, type RequestOptions, type TransportConfig } from '../transport.js';
import type { AppSettings, TareResult } from '../types.js';

export type SettingsResult = TareResult<{ settings: AppSettings }, { locale: string }>;

interface CacheEntry {
  result: SettingsResult;
  etag: string | null;
  expiresAt: number;
}

/**
 * `GET /app-settings`, cached per locale for the answer's `Cache-Control: max-age`; after that
 * the entry is revalidated with `If-None-Match`, and a 304 renews it without a new body.
 */
export class SettingsResource {
  readonly #cache = new Map<string, CacheEntry>();

  constructor(private readonly config: TransportConfig) {}

  async get(params: { locale?: string } = {}, options?: RequestOptions): Promise<SettingsResult> {
    const cacheKey = params.locale ?? '';
    const cached = this.#cache.get(cacheKey);
    if (cached && this.config.now() < cached.expiresAt) return cached.result;

    const response = await send(this.config, {
      method: 'GET',
      path: '/app-settings',
      query: { locale: params.locale },
      headers: cached?.etag ? { 'if-none-match': cached.etag } : {},
      options,
    });
    const maxAgeMs = maxAge(response.headers.get('cache-control')) * 1000;
    if (response.status === 304 && cached) {
      const result = { ...cached.result, requestId: response.requestId };
      this.#remember(cacheKey, result, response.headers.get('etag') ?? cached.etag, maxAgeMs);
      return result;
    }
    const result: SettingsResult = {
      data: response.body.data,
      meta: response.body.meta,
      requestId: response.requestId,
    };
    this.#remember(cacheKey, result, response.headers.get('etag'), maxAgeMs);
    return result;
  }

  /** Forgets every cached locale, e.g. after the shop's labels were changed. */
  clearCache(): void {
    this.#cache.clear();
  }

  #remember(key: string, result: SettingsResult, etag: string | null, maxAgeMs: number): void {
    if (etag === null && maxAgeMs <= 0) {
      this.#cache.delete(key);
      return;
    }
    this.#cache.set(key, { result, etag, expiresAt: this.config.now() + maxAgeMs });
  }
}

// `no-store` or `no-cache` mean "do not reuse without asking": treat them as max-age=0.
function maxAge(cacheControl: string | null): number {
  if (!cacheControl || /\bno-(store|cache)\b/i.test(cacheControl)) return 0;
  const match = /\bmax-age=(\d+)/i.exec(cacheControl);
  return match ? Number(match[1]) : 0;
}
