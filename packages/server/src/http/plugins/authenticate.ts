import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../../services/api-keys.js';
import type { KeyUsageRecorder } from '../../services/key-usage.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** App settings only: the key may come from the form field `key` when no header is sent. */
    keyFromForm?: boolean;
    public?: boolean;
  }
}

function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header);
    return match?.[1] ?? '';
  }
  if (request.routeOptions.config.keyFromForm) {
    const body = request.body as Record<string, unknown> | undefined;
    const key = body && typeof body === 'object' ? body.key : undefined;
    return typeof key === 'string' ? key : undefined;
  }
  return undefined;
}

/** Every /api/v1 route needs a key of its shop; `request.principal` carries it to the handler. */
export function registerAuthentication(
  app: FastifyInstance,
  deps: { authenticator: Authenticator; keyUsage: KeyUsageRecorder },
) {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.public || !request.routeOptions.url) return;
    request.principal = await deps.authenticator.authenticate(presentedKey(request));
    deps.keyUsage.record(request.principal.keyId);
  });
}
