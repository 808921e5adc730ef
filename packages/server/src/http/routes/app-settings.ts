import { AppSettingsQuery, AppSettingsResponse } from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppSettingsService } from '../../services/app-settings.js';
import { JSON_TYPE, sendWhenReady, successJson } from '../envelope.js';

/** GET /api/v1/app-settings: labels for a locale, cacheable by the client for 5 minutes. */
export function appSettingsRoute(deps: { appSettings: AppSettingsService }) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: Static<typeof AppSettingsQuery> }>(
      '/app-settings',
      {
        schema: { querystring: AppSettingsQuery, response: { 200: AppSettingsResponse } },
        config: {
          keyFromForm: true,
          openapi: {
            tag: 'App settings',
            operationId: 'getAppSettings',
            summary: 'Localized labels for a locale',
            description:
              'Labels resolve key by key: requested locale → its language → the shop default → `en`. ' +
              'Without an `Authorization` header the key may be sent as the form field `key` ' +
              '(`application/x-www-form-urlencoded` or `multipart/form-data`). Send `If-None-Match` to get 304.',
            errors: [400, 413],
            okHeaders: {
              ETag: { type: 'string', description: 'Validator for `If-None-Match`.' },
              'Cache-Control': { type: 'string', description: '`private, max-age=300`' },
            },
            extra: { 304: { type: 'null', description: 'Not modified: the `ETag` still matches.' } },
          },
        },
      },
      (request, reply) =>
        sendWhenReady(deps.appSettings.get(request.principal.shopId, request.query.locale), (result) => {
          reply
            .header('cache-control', 'private, max-age=300')
            .header('etag', result.etag)
            .header('vary', 'Authorization');
          if (matches(request.headers['if-none-match'], result.etag)) return reply.status(304).send();
          return reply.type(JSON_TYPE).send(successJson(request, result.json));
        }),
    );
  };
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim().replace(/^W\//, '');
    return candidate === '*' || candidate === etag;
  });
}
