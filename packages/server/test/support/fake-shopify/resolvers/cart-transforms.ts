import { connection, type PageArgs } from '../connection.js';
import { gid } from '../gid.js';
import type { FakeCartTransform, FakeStore } from '../state.js';
import { mapConnection } from '../views.js';
import type { FakeContext } from './context.js';

interface CreateArgs {
  functionId?: string | null;
  functionHandle?: string | null;
  blockOnFailure?: boolean | null;
}

const view = (transform: FakeCartTransform) => ({
  __typename: 'CartTransform',
  id: gid('CartTransform', transform.id),
  functionId: transform.functionId,
  blockOnFailure: transform.blockOnFailure,
});

/**
 * cartTransforms (https://shopify.dev/docs/api/admin-graphql/2026-04/queries/cartTransforms): the
 * cart transforms the calling app registered (the fake has one app).
 */
export function cartTransformQueries({ store }: FakeContext) {
  return {
    cartTransforms: (args: PageArgs) =>
      mapConnection(
        connection([...store.cartTransforms.values()], args, (t) => [Number(t.id)]),
        view,
      ),
  };
}

/**
 * cartTransformCreate (https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/cartTransformCreate):
 * registers one of the app's deployed functions (`fake.state.deployedFunctions`) by `functionId` or
 * `functionHandle`, exactly one (MISSING_FUNCTION_IDENTIFIER, MULTIPLE_FUNCTION_IDENTIFIERS); an
 * unknown one is FUNCTION_NOT_FOUND, one of another API FUNCTION_DOES_NOT_IMPLEMENT, one registered
 * already FUNCTION_ALREADY_REGISTERED. Messages are the enum's descriptions
 * (https://shopify.dev/docs/api/admin-graphql/2026-04/enums/CartTransformCreateUserErrorCode).
 * `metafields` are accepted and not kept (Tare sends none).
 */
export function cartTransformMutations({ store, faults }: FakeContext) {
  return {
    cartTransformCreate: (args: CreateArgs) => {
      faults.takeCartTransformHook()?.();
      const refusal = faults.takeCartTransformRefusal();
      if (refusal) return refused(refusal.code, ['functionHandle'], refusal.message);
      const { functionId, functionHandle } = args;
      if (!functionId && !functionHandle) {
        return refused('MISSING_FUNCTION_IDENTIFIER', null, 'Either function_id or function_handle must be provided.');
      }
      if (functionId && functionHandle) {
        return refused(
          'MULTIPLE_FUNCTION_IDENTIFIERS',
          null,
          'Only one of function_id or function_handle can be provided, not both.',
        );
      }
      const field = functionId ? ['functionId'] : ['functionHandle'];
      const deployed = deployedFunction(store, args);
      if (!deployed) return refused('FUNCTION_NOT_FOUND', field, 'No Shopify Function found for provided function_id.');
      if (deployed.apiType !== 'cart_transform') {
        return refused(
          'FUNCTION_DOES_NOT_IMPLEMENT',
          field,
          'Function does not implement the required interface for this cart_transform function.',
        );
      }
      if ([...store.cartTransforms.values()].some((t) => t.functionId === deployed.id)) {
        return refused(
          'FUNCTION_ALREADY_REGISTERED',
          field,
          'A cart transform function already exists for the provided function_id.',
        );
      }
      const transform = { id: store.nextId(), functionId: deployed.id, blockOnFailure: args.blockOnFailure ?? false };
      store.cartTransforms.set(transform.id, transform);
      return { cartTransform: view(transform), userErrors: [] };
    },
  };
}

function deployedFunction(store: FakeStore, args: CreateArgs) {
  if (args.functionHandle) return store.deployedFunctions.get(args.functionHandle);
  return [...store.deployedFunctions.values()].find((f) => f.id === args.functionId);
}

const refused = (code: string, field: string[] | null, message: string) => ({
  cartTransform: null,
  userErrors: [{ code, field, message }],
});
