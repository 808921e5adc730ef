import type { FastifyRequest } from 'fastify';
import { requestFingerprint } from '../domain/idempotency-key.js';
import type { InventoryWrite } from '../services/inventory/write-inventory.js';
import type { AdminContext } from './admin-app.js';
import { staffActor } from './staff.js';

/** The admin's stock writes carry Idempotency-Keys of their own (`admin-<form id>`), apart from an API client's. */
const ADMIN_KEY_PREFIX = 'admin-';

/**
 * The API's idempotent stock write, asked for by the signed-in staff member with the form
 * `formId`: its first post applies, a second one (a double click) answers as the first did.
 */
export function writeInventoryAsStaff(
  ctx: AdminContext,
  request: FastifyRequest,
  formId: string,
  write: Pick<InventoryWrite, 'operation' | 'locationId' | 'entries'>,
) {
  const staff = request.staff!;
  const { _csrf: _, ...sent } = request.body as Record<string, unknown>;
  return ctx.writeInventory(
    {
      shopId: staff.shopId,
      ...write,
      requestId: request.id,
      actor: staffActor(staff),
      idempotency: {
        shopId: staff.shopId,
        key: `${ADMIN_KEY_PREFIX}${formId}`,
        fingerprint: requestFingerprint('POST', request.routeOptions.url ?? request.url, sent),
        retentionHours: ctx.idempotencyRetentionHours,
      },
    },
    (data) => JSON.stringify(data),
  );
}
