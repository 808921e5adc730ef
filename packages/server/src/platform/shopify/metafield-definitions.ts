import { METAFIELD_NAMESPACE, SHOP_METAFIELD_KEY, VARIANT_METAFIELD_KEY } from '@tare/contracts';
import type { ShopifyAdmin } from './admin-client.js';
import {
  CREATE_METAFIELD_DEFINITION,
  STOREFRONT_METAFIELD_DEFINITION,
  UPDATE_METAFIELD_DEFINITION,
} from './operations.js';

/**
 * A storefront metafield Tare writes and the theme block reads, and what the block cannot do
 * without it (said when Shopify refuses its definition).
 */
interface StorefrontMetafield {
  ownerType: 'PRODUCTVARIANT' | 'SHOP';
  key: string;
  name: string;
  description: string;
  withoutIt: string;
}

/**
 * The theme block reads both (extensions/tare-measure-picker/blocks/measure-picker.liquid) and
 * renders no picker when either is unreadable. Defined through the Admin API because the app's
 * TOML definitions take only the bare `$app` namespace, not `$app:tare`.
 */
export const STOREFRONT_METAFIELDS: readonly StorefrontMetafield[] = [
  {
    ownerType: 'PRODUCTVARIANT',
    key: VARIANT_METAFIELD_KEY,
    name: 'Tare measurement',
    description: "How Tare's measure picker sells this variant by measure (written by Tare).",
    withoutIt: "cannot read any variant's measurement settings",
  },
  {
    ownerType: 'SHOP',
    key: SHOP_METAFIELD_KEY,
    name: 'Tare storefront labels',
    description: "The labels and pricing mode of Tare's measure picker (written by Tare).",
    withoutIt: "cannot read the shop's labels and pricing mode",
  },
];

/** What became of one definition: the storefront may read it, or why Shopify refused. */
export type DefinitionOutcome = { metafield: StorefrontMetafield } & (
  { readable: true; change: 'created' | 'granted' | 'none' } | { readable: false; code: string; problem: string }
);

interface DefinitionNode {
  id: string;
  access: { storefront: 'NONE' | 'PUBLIC_READ' | null };
}

interface UserError {
  code: string | null;
  field: string[] | null;
  message: string;
}

/**
 * Makes each storefront metafield readable by the theme block: its definition with storefront
 * access PUBLIC_READ, created where missing (TAKEN: another connect created it first) and granted
 * where it exists without that access; idempotent, a definition already readable is left alone.
 * User errors come back as outcomes to warn about; the admin client's errors are thrown.
 */
export async function ensureStorefrontMetafieldDefinitions(admin: ShopifyAdmin): Promise<DefinitionOutcome[]> {
  const outcomes: DefinitionOutcome[] = [];
  for (const metafield of STOREFRONT_METAFIELDS) outcomes.push(await ensureDefinition(admin, metafield));
  return outcomes;
}

async function ensureDefinition(admin: ShopifyAdmin, metafield: StorefrontMetafield): Promise<DefinitionOutcome> {
  const existing = await readDefinition(admin, metafield);
  if (existing) return grantStorefrontAccess(admin, metafield, existing);
  const { data } = await admin.request<{
    metafieldDefinitionCreate: { createdDefinition: DefinitionNode | null; userErrors: UserError[] };
  }>(CREATE_METAFIELD_DEFINITION, {
    definition: {
      namespace: METAFIELD_NAMESPACE,
      key: metafield.key,
      name: metafield.name,
      description: metafield.description,
      ownerType: metafield.ownerType,
      type: 'json',
      access: { storefront: 'PUBLIC_READ' },
    },
  });
  const { createdDefinition, userErrors } = data.metafieldDefinitionCreate;
  if (createdDefinition) return { metafield, readable: true, change: 'created' };
  if (userErrors[0]?.code === 'TAKEN') {
    const created = await readDefinition(admin, metafield);
    if (created) return grantStorefrontAccess(admin, metafield, created);
  }
  return refused(metafield, userErrors[0]);
}

async function grantStorefrontAccess(
  admin: ShopifyAdmin,
  metafield: StorefrontMetafield,
  definition: DefinitionNode,
): Promise<DefinitionOutcome> {
  if (definition.access.storefront === 'PUBLIC_READ') return { metafield, readable: true, change: 'none' };
  const { data } = await admin.request<{
    metafieldDefinitionUpdate: { updatedDefinition: DefinitionNode | null; userErrors: UserError[] };
  }>(UPDATE_METAFIELD_DEFINITION, {
    definition: {
      namespace: METAFIELD_NAMESPACE,
      key: metafield.key,
      ownerType: metafield.ownerType,
      access: { storefront: 'PUBLIC_READ' },
    },
  });
  const { updatedDefinition, userErrors } = data.metafieldDefinitionUpdate;
  if (updatedDefinition?.access.storefront === 'PUBLIC_READ') return { metafield, readable: true, change: 'granted' };
  return refused(metafield, userErrors[0]);
}

async function readDefinition(admin: ShopifyAdmin, metafield: StorefrontMetafield) {
  const { data } = await admin.request<{ metafieldDefinitions: { nodes: DefinitionNode[] } }>(
    STOREFRONT_METAFIELD_DEFINITION,
    { ownerType: metafield.ownerType, namespace: METAFIELD_NAMESPACE, key: metafield.key },
  );
  return data.metafieldDefinitions.nodes[0];
}

function refused(metafield: StorefrontMetafield, error: UserError | undefined): DefinitionOutcome {
  const code = error?.code ?? 'UNKNOWN';
  return {
    metafield,
    readable: false,
    code,
    problem:
      `Shopify refused storefront access to ${METAFIELD_NAMESPACE}.${metafield.key} (${code}): ` +
      `${error?.message ?? 'no message'}; the theme block ${metafield.withoutIt}, so it shows no measure picker ` +
      'on any product page; connect again once it is fixed',
  };
}
