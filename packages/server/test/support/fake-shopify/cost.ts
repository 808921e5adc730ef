import {
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  isAbstractType,
  isLeafType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * Query cost as Shopify calculates it (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits):
 * scalars and enums 0, objects 1, an interface or union the most expensive of its possible
 * selections, a connection 2 plus its page size (`first`/`last`) times one node's cost, a mutation
 * field 10. The requested cost is counted before execution from the page sizes asked; the actual
 * cost after it from what came back (a connection's nodes returned, nulls ending a branch early).
 * A single query may not request more than 1,000 points
 * (https://help.shopify.com/en/api/graphql-admin-api/call-limit "Single query limit"); a connection
 * needs `first` or `last`, at most 250 (https://shopify.dev/docs/api/usage/pagination-graphql).
 */
export const SINGLE_QUERY_MAX_COST = 1000;
const MUTATION_COST = 10;
const MAX_PAGE_SIZE = 250;

interface Walk {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Where arguments break Shopify's paging rules (collected while counting the requested cost). */
  errors: string[];
}

type Data = Record<string, unknown> | null | undefined;
const REQUESTED = Symbol('requested');
type Mode = typeof REQUESTED | Data;

function typeApplies(walk: Walk, condition: string | undefined, type: GraphQLObjectType): boolean {
  if (!condition || condition === type.name) return true;
  const conditionType = walk.schema.getType(condition);
  return conditionType !== undefined && isAbstractType(conditionType) && walk.schema.isSubType(conditionType, type);
}

/** The field nodes of a selection set that apply to an object of `type`, fragments followed. */
function fieldsFor(walk: Walk, selectionSet: SelectionSetNode | undefined, type: GraphQLObjectType): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (typeApplies(walk, selection.typeCondition?.name.value, type)) {
        fields.push(...fieldsFor(walk, selection.selectionSet, type));
      }
    } else {
      const fragment = walk.fragments[selection.name.value];
      if (fragment && typeApplies(walk, fragment.typeCondition.name.value, type)) {
        fields.push(...fieldsFor(walk, fragment.selectionSet, type));
      }
    }
  }
  return fields;
}

function possibleObjects(walk: Walk, type: GraphQLNamedType): readonly GraphQLObjectType[] {
  if (isObjectType(type)) return [type];
  if (isAbstractType(type)) return walk.schema.getPossibleTypes(type);
  return [];
}

/** Cost of what is selected under an object (itself not counted), the most expensive possible type for abstract ones. */
function selectionCost(walk: Walk, type: GraphQLNamedType, selectionSet: SelectionSetNode | undefined, mode: Mode) {
  let most = 0;
  for (const objectType of possibleObjects(walk, type)) {
    const cost = fieldsFor(walk, selectionSet, objectType).reduce(
      (sum, field) => sum + fieldCost(walk, objectType, field, mode),
      0,
    );
    most = Math.max(most, cost);
  }
  return most;
}

function nodeSelections(connectionSelection: SelectionSetNode | undefined): SelectionSetNode {
  const selections = [];
  for (const selection of connectionSelection?.selections ?? []) {
    if (selection.kind !== Kind.FIELD) continue;
    if (selection.name.value === 'nodes') selections.push(...(selection.selectionSet?.selections ?? []));
    if (selection.name.value === 'edges') {
      for (const edgeField of selection.selectionSet?.selections ?? []) {
        if (edgeField.kind === Kind.FIELD && edgeField.name.value === 'node') {
          selections.push(...(edgeField.selectionSet?.selections ?? []));
        }
      }
    }
  }
  return { kind: Kind.SELECTION_SET, selections };
}

function connectionCost(
  walk: Walk,
  field: FieldNode,
  type: GraphQLObjectType,
  args: Record<string, unknown>,
  mode: Mode,
) {
  const nodeType = getNamedType(type.getFields().nodes!.type);
  const selections = nodeSelections(field.selectionSet);
  if (mode === REQUESTED) {
    const size = (args.first ?? args.last) as number | undefined;
    if (size === undefined || size === null) {
      walk.errors.push(
        `You must provide a \`first\` or \`last\` value to properly paginate the \`${field.name.value}\` connection.`,
      );
    } else if (size > MAX_PAGE_SIZE || size < 0) {
      walk.errors.push(`The page size of \`${field.name.value}\` must be between 0 and ${MAX_PAGE_SIZE}, not ${size}.`);
    }
    return 2 + (size ?? 0) * (1 + selectionCost(walk, nodeType, selections, REQUESTED));
  }
  const value = mode?.[field.alias?.value ?? field.name.value] as Data;
  const fromEdges = (value?.edges as { node: Data }[] | undefined)?.map((e) => e.node);
  const nodes = (fromEdges ?? (value?.nodes as Data[] | undefined) ?? []) as Data[];
  return 2 + nodes.reduce((sum, node) => sum + 1 + selectionCost(walk, nodeType, selections, node), 0);
}

function fieldCost(walk: Walk, parent: GraphQLObjectType, field: FieldNode, mode: Mode): number {
  const definition = parent.getFields()[field.name.value];
  if (!definition) return 0; // __typename and other meta fields cost nothing
  const type = getNamedType(definition.type);
  if (isLeafType(type)) return 0;
  const args = getArgumentValues(definition, field, walk.variables);
  if (isObjectType(type) && type.name.endsWith('Connection') && type.getFields().nodes) {
    return connectionCost(walk, field, type, args, mode);
  }
  if (mode === REQUESTED) {
    const count = Array.isArray(args.ids) ? args.ids.length : 1;
    return count * (1 + selectionCost(walk, type, field.selectionSet, REQUESTED));
  }
  const value = mode?.[field.alias?.value ?? field.name.value];
  if (Array.isArray(value) && Array.isArray(args.ids)) {
    return value.reduce((sum: number, item: Data) => sum + 1 + selectionCost(walk, type, field.selectionSet, item), 0);
  }
  if (Array.isArray(value)) {
    return 1 + Math.max(0, ...value.map((item: Data) => selectionCost(walk, type, field.selectionSet, item)));
  }
  return value === null || value === undefined ? 1 : 1 + selectionCost(walk, type, field.selectionSet, value as Data);
}

export interface CostInput {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function rootCost(input: CostInput, mode: Mode, errors: string[]): number {
  const walk: Walk = { ...input, errors };
  const root = input.operation.operation === 'mutation' ? input.schema.getMutationType() : input.schema.getQueryType();
  if (!root) return 0;
  const fields = fieldsFor(walk, input.operation.selectionSet, root);
  if (input.operation.operation === 'mutation')
    return fields.filter((f) => f.name.value !== '__typename').length * MUTATION_COST;
  return fields.reduce((sum, field) => sum + fieldCost(walk, root, field, mode), 0);
}

/** The cost counted before execution, and the paging rules the operation breaks. */
export function requestedCost(input: CostInput): { cost: number; errors: string[] } {
  const errors: string[] = [];
  const cost = rootCost(input, REQUESTED, errors);
  return { cost, errors };
}

/** The cost of what the execution returned (never above the requested cost for the same operation). */
export function actualCost(input: CostInput, data: Data): number {
  return rootCost(input, data ?? null, []);
}
