import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { success, successJson } from './envelope.js';

describe('successJson', () => {
  it.each(['req_1', 'req "quoted" \\ and \u2028 line separator'])(
    'when data and meta are pre-serialized (request id %j), then the text is what success() serializes to',
    (id) => {
      const request = { id } as FastifyRequest;
      const data = { product: { id: '1001', variants: [{ id: '2001', rules: { max: null } }] } };
      const meta = { nextCursor: null, hasMore: false };
      const text = successJson(request, { data: JSON.stringify(data), meta: JSON.stringify(meta) });
      expect(text).toBe(JSON.stringify(success(request, data, meta)));
    },
  );
});
