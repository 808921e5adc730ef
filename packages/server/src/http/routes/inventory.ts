import { AdjustmentsBody, InventoryResponse, LevelsBody } from '@tare/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InventoryOperation } from '../../domain/inventory.js';
import type { InventoryEntry, InventoryWriter } from '../../services/inventory/write-inventory.js';
import { success } from '../envelope.js';
import { idempotencyOf, sendWriteResponse } from '../idempotency.js';

const WRITE_ERRORS = [400, 404, 409, 413, 415, 422, 503] as const;

/**
 * POST /api/v1/inventory/adjustments (relative) and PUT /api/v1/inventory/levels (absolute):
 * the same write with a different operation, both idempotent.
 */
export function inventoryRoutes(deps: { writeInventory: InventoryWriter; idempotencyRetentionHours: number }) {
  async function handle(
    request: FastifyRequest,
    reply: FastifyReply,
    operation: InventoryOperation,
    locationId: string,
    entries: InventoryEntry[],
  ) {
    const idempotency = idempotencyOf(request, {
      required: true,
      path: request.routeOptions.url ?? request.url,
      retentionHours: deps.idempotencyRetentionHours,
    });
    const response = await deps.writeInventory(
      {
        shopId: request.principal.shopId,
        operation,
        locationId,
        entries,
        requestId: request.id,
        idempotency,
        actor: { type: 'api_key', id: request.principal.keyId, name: request.principal.keyName },
      },
      (data) => JSON.stringify(success(request, data)),
    );
    return sendWriteResponse(request, reply, response);
  }

  return async (app: FastifyInstance) => {
    app.post<{ Body: AdjustmentsBody }>(
      '/inventory/adjustments',
      {
        schema: { body: AdjustmentsBody, response: { 200: InventoryResponse } },
        config: {
          openapi: {
            tag: 'Inventory',
            operationId: 'adjustInventory',
            summary: 'Adjust inventory levels by exact deltas',
            description: 'Relative write: each delta is added to the variant level at the location. Idempotent.',
            errors: WRITE_ERRORS,
            idempotencyKey: 'required',
            links: {
              setInventoryLevels: {
                operationId: 'setInventoryLevels',
                description: 'Set the first level to the quantity it now has, at the same location.',
                requestBody: {
                  locationId: '$response.body#/data/locationId',
                  levels: [
                    {
                      variantId: '$response.body#/data/results/0/variantId',
                      quantity: '$response.body#/data/results/0/quantity',
                    },
                  ],
                },
              },
            },
          },
        },
      },
      (request, reply) =>
        handle(
          request,
          reply,
          'adjustment',
          request.body.locationId,
          request.body.adjustments.map((a, i) => ({
            variantId: a.variantId,
            value: a.delta.value,
            unit: a.delta.unit,
            path: `/adjustments/${i}`,
            field: 'delta',
          })),
        ),
    );
    app.put<{ Body: LevelsBody }>(
      '/inventory/levels',
      {
        schema: { body: LevelsBody, response: { 200: InventoryResponse } },
        config: {
          openapi: {
            tag: 'Inventory',
            operationId: 'setInventoryLevels',
            summary: 'Set absolute inventory levels',
            description: 'Absolute write: each quantity becomes the variant level at the location. Idempotent.',
            errors: WRITE_ERRORS,
            idempotencyKey: 'required',
          },
        },
      },
      (request, reply) =>
        handle(
          request,
          reply,
          'set',
          request.body.locationId,
          request.body.levels.map((l, i) => ({
            variantId: l.variantId,
            value: l.quantity.value,
            unit: l.quantity.unit,
            path: `/levels/${i}`,
            field: 'quantity',
          })),
        ),
    );
  };
}
