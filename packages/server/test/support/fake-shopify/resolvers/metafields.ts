import { createHash } from 'node:crypto';
import { gidType, parseGid } from '../gid.js';
import type { FakeMetafield, FakeStore } from '../state.js';
import { metafieldView, SHOP_NUMBER } from '../views.js';
import type { FakeContext } from './context.js';

/** metafieldsSet "allows a maximum of 25 metafields to be set at a time". */
const MAX_INPUTS = 25;
/** 2026-04: "JSON type metafield writes will be limited to 128KB" (https://shopify.dev/changelog/reduced-metafield-value-sizes). */
const JSON_LIMIT_BYTES = 128 * 1024;
/** Every other type: 64KB (https://shopify.dev/docs/apps/build/metafields/metafield-limits). */
const VALUE_LIMIT_BYTES = 64 * 1024;
/** The types a test writes; Shopify knows many more (https://shopify.dev/docs/apps/build/metafields/list-of-data-types). */
const TYPES = new Set([
  'json',
  'single_line_text_field',
  'multi_line_text_field',
  'number_integer',
  'number_decimal',
  'boolean',
]);

interface SetInput {
  ownerId: string;
  namespace?: string | null;
  key: string;
  value: string;
  type?: string | null;
  compareDigest?: string | null;
}

interface SetError {
  code: string;
  elementIndex: number | null;
  field: string[];
  message: string;
}

/** The digest `Metafield.compareDigest` answers (views.ts computes it the same way). */
const compareDigest = (metafield: Pick<FakeMetafield, 'value'>) =>
  createHash('sha256').update(metafield.value).digest('hex');

/**
 * metafieldsSet (https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/metafieldsSet):
 * creates or updates up to 25 metafields, atomically ("no changes are persisted if an error is
 * encountered"); each error names its input by `elementIndex`. The namespace defaults to `$app`
 * and `$app:x` resolves to the calling app's reserved namespace; another app's reserved namespace
 * is APP_NOT_AUTHORIZED ("ApiPermission metafields can only be created or updated by the app
 * owner"). The type is required when the metafield does not exist yet; a json value must parse and
 * stay within 128KB (2026-04); `compareDigest` must match the stored value's (null: must not exist).
 * Codes: https://shopify.dev/docs/api/admin-graphql/2026-04/enums/MetafieldsSetUserErrorCode.
 */
export function metafieldMutations(context: FakeContext) {
  const { store } = context;
  return {
    metafieldsSet: ({ metafields }: { metafields: SetInput[] }) => {
      if (metafields.length > MAX_INPUTS) {
        return failed([
          {
            code: 'LESS_THAN_OR_EQUAL_TO',
            elementIndex: null,
            field: ['metafields'],
            message: `Exceeded the maximum metafields input limit of ${MAX_INPUTS}.`,
          },
        ]);
      }
      const errors = metafields.flatMap((input, i) => inputErrors(store, input, i, context));
      if (errors.length > 0) return failed(errors);
      return { metafields: metafields.map((input) => metafieldView(store, upsert(store, input))), userErrors: [] };
    },
  };
}

function failed(userErrors: SetError[]) {
  return { metafields: [], userErrors };
}

function inputErrors(store: FakeStore, input: SetInput, i: number, context: FakeContext): SetError[] {
  const at = (field: string, code: string, message: string): SetError[] => [
    { code, elementIndex: i, field: ['metafields', String(i), field], message },
  ];
  const ownerType = gidType(input.ownerId);
  const owner =
    ownerType === 'ProductVariant'
      ? store.variants.get(parseGid(input.ownerId, ownerType) ?? '')
      : ownerType === 'Shop' && parseGid(input.ownerId, 'Shop') === SHOP_NUMBER
        ? store.shop
        : undefined;
  if (!owner) return at('ownerId', 'INVALID', 'Owner does not exist.');
  const namespace = store.qualifiedNamespace(input.namespace ?? '$app');
  if (/^app--\d+/.test(namespace) && !namespace.startsWith(`app--${store.appId}`)) {
    return at(
      'namespace',
      'APP_NOT_AUTHORIZED',
      'ApiPermission metafields can only be created or updated by the app owner.',
    );
  }
  if (!input.key.trim()) return at('key', 'BLANK', "Key can't be blank.");
  const existing = store.metafields.get(`${input.ownerId}|${namespace}|${input.key}`);
  const type = input.type ?? existing?.type;
  if (!type) return at('type', 'BLANK', "Type can't be blank.");
  if (!TYPES.has(type)) return at('type', 'INVALID_TYPE', `'${type}' is not a valid type.`);
  if (existing && input.type && input.type !== existing.type) {
    return at('type', 'INVALID_TYPE', 'Type cannot be changed once the metafield exists.');
  }
  const size = Buffer.byteLength(input.value, 'utf8');
  const limit = type === 'json' ? JSON_LIMIT_BYTES : VALUE_LIMIT_BYTES;
  if (size > limit) return at('value', 'TOO_LONG', `Value is too long (maximum is ${limit} bytes).`);
  if (type === 'json' && !parses(input.value)) return at('value', 'INVALID_VALUE', 'Value is invalid JSON.');
  if (input.compareDigest !== undefined) {
    const current = existing ? compareDigest(existing) : null;
    if (input.compareDigest !== current) {
      return at('compareDigest', 'STALE_OBJECT', 'The resource has been updated since it was loaded.');
    }
  }
  const injected = context.faults.takeMetafieldRefusal();
  return injected ? at('value', injected.code, injected.message) : [];
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function upsert(store: FakeStore, input: SetInput): FakeMetafield {
  const namespace = store.qualifiedNamespace(input.namespace ?? '$app');
  const key = `${input.ownerId}|${namespace}|${input.key}`;
  const existing = store.metafields.get(key);
  const at = store.now();
  const metafield: FakeMetafield = existing
    ? { ...existing, value: input.value, updatedAt: at }
    : {
        id: store.nextId(),
        ownerId: input.ownerId,
        namespace,
        key: input.key,
        type: input.type!,
        value: input.value,
        createdAt: at,
        updatedAt: at,
      };
  store.metafields.set(key, metafield);
  return metafield;
}
