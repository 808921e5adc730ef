import { connection, type PageArgs } from '../connection.js';
import { gid } from '../gid.js';
import type { FakeMetafieldDefinition, FakeStore } from '../state.js';
import { mapConnection } from '../views.js';
import type { FakeContext } from './context.js';

type OwnerType = FakeMetafieldDefinition['ownerType'];

interface AccessInput {
  admin?: string | null;
  customerAccount?: string | null;
  storefront?: FakeMetafieldDefinition['access']['storefront'] | null;
}

interface CreateInput {
  namespace?: string | null;
  key: string;
  name: string;
  description?: string | null;
  ownerType: OwnerType;
  type: string;
  access?: AccessInput | null;
}

interface UpdateInput {
  namespace?: string | null;
  key: string;
  name?: string | null;
  description?: string | null;
  ownerType: OwnerType;
  access?: AccessInput | null;
}

interface DefinitionError {
  code: string;
  field: string[] | null;
  message: string;
}

/** The types a test defines; Shopify knows many more (https://shopify.dev/docs/apps/build/metafields/list-of-data-types). */
const TYPES: Record<string, string> = { json: 'JSON', single_line_text_field: 'TEXT', boolean: 'TRUE_FALSE' };
/** "Must be 2-64 characters long and only contain alphanumeric, hyphen, and underscore characters." */
const KEY = /^[A-Za-z0-9_-]+$/;
const OWNER_LABEL: Record<OwnerType, string> = { PRODUCTVARIANT: 'Product variant', SHOP: 'Shop' };

const view = (definition: FakeMetafieldDefinition) => ({
  __typename: 'MetafieldDefinition',
  id: gid('MetafieldDefinition', definition.id),
  name: definition.name,
  description: definition.description,
  namespace: definition.namespace,
  key: definition.key,
  ownerType: definition.ownerType,
  type: { name: definition.type, category: TYPES[definition.type] ?? 'TEXT' },
  access: { ...definition.access },
});

const appOwned = (store: FakeStore, namespace: string) => namespace.startsWith(`app--${store.appId}`);

/**
 * metafieldDefinitions (https://shopify.dev/docs/api/admin-graphql/2026-04/queries/metafieldDefinitions):
 * the definitions of one owner type, filtered by namespace (`$app:x` resolves as everywhere) and key.
 */
export function metafieldDefinitionQueries({ store }: FakeContext) {
  return {
    metafieldDefinitions: (
      args: PageArgs & { ownerType: OwnerType; namespace?: string | null; key?: string | null },
    ) => {
      const namespace = args.namespace ? store.qualifiedNamespace(args.namespace) : undefined;
      const matching = [...store.metafieldDefinitions.values()].filter(
        (d) =>
          d.ownerType === args.ownerType &&
          (namespace === undefined || d.namespace === namespace) &&
          (!args.key || d.key === args.key),
      );
      return mapConnection(
        connection(matching, args, (d) => [Number(d.id)]),
        view,
      );
    },
  };
}

/**
 * metafieldDefinitionCreate (https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/metafieldDefinitionCreate)
 * and metafieldDefinitionUpdate (…/mutations/metafieldDefinitionUpdate). Create: the namespace
 * defaults to `$app`; a definition of the same owner type, namespace and key is TAKEN; the key is
 * 2–64 characters (TOO_SHORT, TOO_LONG) of letters, digits, `-` and `_` (INVALID_CHARACTER); a
 * blank name is BLANK; an unknown type INCLUSION; `access.admin` outside the app's own namespace is
 * ADMIN_ACCESS_INPUT_NOT_ALLOWED. Access defaults: admin MERCHANT_READ for an app-owned definition
 * (https://shopify.dev/docs/apps/build/custom-data/permissions), storefront and customerAccount
 * NONE. Update: found by owner type, namespace and key (NOT_FOUND), changes only what it is given.
 * Codes: …/enums/MetafieldDefinitionCreateUserErrorCode, …/enums/MetafieldDefinitionUpdateUserErrorCode;
 * the messages are ours where the reference gives none.
 */
export function metafieldDefinitionMutations({ store, faults }: FakeContext) {
  return {
    metafieldDefinitionCreate: ({ definition: input }: { definition: CreateInput }) => {
      const refused = (error: DefinitionError) => ({ createdDefinition: null, userErrors: [error] });
      faults.takeMetafieldDefinitionCreateHook()?.();
      const injected = faults.takeMetafieldDefinitionRefusal();
      if (injected) return refused({ ...injected, field: ['definition'] });
      const namespace = store.qualifiedNamespace(input.namespace ?? '$app');
      const problem = createProblem(store, input, namespace);
      if (problem) return refused(problem);
      const definition: FakeMetafieldDefinition = {
        id: store.nextId(),
        ownerType: input.ownerType,
        namespace,
        key: input.key,
        name: input.name,
        description: input.description ?? null,
        type: input.type,
        access: {
          admin: input.access?.admin ?? (appOwned(store, namespace) ? 'MERCHANT_READ' : null),
          storefront: input.access?.storefront ?? 'NONE',
          customerAccount: input.access?.customerAccount ?? 'NONE',
        },
      };
      store.metafieldDefinitions.set(`${input.ownerType}|${namespace}|${input.key}`, definition);
      return { createdDefinition: view(definition), userErrors: [] };
    },

    metafieldDefinitionUpdate: ({ definition: input }: { definition: UpdateInput }) => {
      const refused = (error: DefinitionError) => ({ updatedDefinition: null, userErrors: [error] });
      const injected = faults.takeMetafieldDefinitionRefusal();
      if (injected) return refused({ ...injected, field: ['definition'] });
      const definition = store.metafieldDefinition(input.ownerType, input.namespace ?? '$app', input.key);
      if (!definition) return refused({ code: 'NOT_FOUND', field: ['definition'], message: 'Definition not found.' });
      if (input.name !== undefined && input.name !== null && !input.name.trim()) {
        return refused({ code: 'BLANK', field: ['definition', 'name'], message: "Name can't be blank." });
      }
      if (input.access?.admin && !appOwned(store, definition.namespace)) return refused(adminAccessNotAllowed);
      if (input.name) definition.name = input.name;
      if (input.description !== undefined) definition.description = input.description;
      const { admin, storefront, customerAccount } = input.access ?? {};
      if (admin) definition.access.admin = admin;
      if (storefront) definition.access.storefront = storefront;
      if (customerAccount) definition.access.customerAccount = customerAccount;
      return { updatedDefinition: view(definition), userErrors: [] };
    },
  };
}

const adminAccessNotAllowed: DefinitionError = {
  code: 'ADMIN_ACCESS_INPUT_NOT_ALLOWED',
  field: ['definition', 'access', 'admin'],
  message: 'Admin access can only be specified for app-owned metafield definitions.',
};

function createProblem(store: FakeStore, input: CreateInput, namespace: string): DefinitionError | undefined {
  const at = (field: string, code: string, message: string) => ({ code, field: ['definition', field], message });
  if (!input.name.trim()) return at('name', 'BLANK', "Name can't be blank.");
  if (input.key.length < 2) return at('key', 'TOO_SHORT', 'Key is too short (minimum is 2 characters).');
  if (input.key.length > 64) return at('key', 'TOO_LONG', 'Key is too long (maximum is 64 characters).');
  if (!KEY.test(input.key)) {
    return at('key', 'INVALID_CHARACTER', 'Key contains one or more invalid characters.');
  }
  if (!(input.type in TYPES)) return at('type', 'INCLUSION', `Type '${input.type}' is not included in the list.`);
  if (input.access?.admin && !appOwned(store, namespace)) return adminAccessNotAllowed;
  if (store.metafieldDefinitions.has(`${input.ownerType}|${namespace}|${input.key}`)) {
    return at(
      'key',
      'TAKEN',
      `Key is in use for ${OWNER_LABEL[input.ownerType]} metafields on the '${namespace}' namespace.`,
    );
  }
  return undefined;
}
