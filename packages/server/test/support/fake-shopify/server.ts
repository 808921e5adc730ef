import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  execute,
  type FragmentDefinitionNode,
  getOperationAST,
  getVariableValues,
  type GraphQLError,
  type GraphQLSchema,
  Kind,
  parse,
  validate,
} from 'graphql';
import type { LeakyBucket } from './bucket.js';
import { actualCost, requestedCost, SINGLE_QUERY_MAX_COST } from './cost.js';
import type { FaultPlan } from './faults.js';
import type { FakeContext } from './resolvers/context.js';
import { cartTransformMutations, cartTransformQueries } from './resolvers/cart-transforms.js';
import { inventoryMutations } from './resolvers/inventory.js';
import { metafieldDefinitionMutations, metafieldDefinitionQueries } from './resolvers/metafield-definitions.js';
import { metafieldMutations } from './resolvers/metafields.js';
import { productVariantMutations } from './resolvers/product-variants.js';
import { orderEditMutations } from './resolvers/order-edit.js';
import { queryRoot } from './resolvers/query.js';
import { webhookSubscriptionMutations } from './resolvers/webhook-subscriptions.js';
import type { FakeStore } from './state.js';
import type { WebhookDispatcher } from './webhooks.js';

/**
 * The HTTP face of the fake: `POST /admin/api/{version}/graphql.json` with
 * `X-Shopify-Access-Token`, a JSON body `{ query, variables, operationName? }`, and Shopify's
 * answers (https://shopify.dev/docs/api/admin-graphql#endpoints, authentication:
 * https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens): 401 with
 * Shopify's text for a missing, wrong or revoked token; 200 with GraphQL `errors` for a query that
 * does not parse or validate; 200 with `THROTTLED` when the bucket cannot pay the requested cost;
 * otherwise 200 with `data`, `errors` if any, and `extensions.cost`.
 */
export type CallStatus =
  'ok' | 'invalid' | 'throttled' | 'max_cost_exceeded' | 'unauthorized' | 'server_error' | 'lost' | 'not_found';

export interface CallRecord {
  operationName: string | null;
  /** The operation's top-level fields (`inventorySetQuantities`, `nodes`…). */
  rootFields: string[];
  variables: Record<string, unknown>;
  requestedCost: number | null;
  actualCost: number | null;
  status: CallStatus;
  httpStatus: number;
  at: number;
}

export interface InvalidQuery {
  query: string;
  operationName: string | null;
  variables: unknown;
  reasons: string[];
}

export interface ServerDeps {
  schema: GraphQLSchema;
  store: FakeStore;
  faults: FaultPlan;
  webhooks: WebhookDispatcher;
  bucket: LeakyBucket;
  apiVersion: string;
  accessToken: () => string;
  tokenRevoked: () => boolean;
  calls: CallRecord[];
  invalidQueries: InvalidQuery[];
}

const UNAUTHORIZED = '{"errors":"[API] Invalid API key or access token (unrecognized login or wrong password)"}';

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface GraphQLRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export function createFakeShopifyServer(deps: ServerDeps): Server {
  const keysInFlight = new Set<string>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const call: CallRecord = {
      operationName: null,
      rootFields: [],
      variables: {},
      requestedCost: null,
      actualCost: null,
      status: 'ok',
      httpStatus: 200,
      at: deps.store.now(),
    };
    deps.calls.push(call);
    const answer = (status: number, body: string, callStatus: CallStatus) => {
      call.httpStatus = status;
      call.status = callStatus;
      send(res, status, body);
    };
    const path = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(new URL(req.url ?? '/', 'http://fake').pathname);
    if (req.method !== 'POST' || !path || path[1] !== deps.apiVersion) {
      return answer(404, '{"errors":"Not Found"}', 'not_found');
    }
    const failure = deps.faults.takeServerError();
    if (failure !== undefined) return answer(failure, `{"errors":"Fake Shopify answered ${failure}"}`, 'server_error');
    if (req.headers['x-shopify-access-token'] !== deps.accessToken() || deps.tokenRevoked()) {
      return answer(401, UNAUTHORIZED, 'unauthorized');
    }

    let request: GraphQLRequest;
    try {
      request = JSON.parse(raw) as GraphQLRequest;
    } catch {
      request = {};
    }
    const variables = (request.variables ?? {}) as Record<string, unknown>;
    const operationName = typeof request.operationName === 'string' ? request.operationName : null;
    call.variables = variables;
    call.operationName = operationName;
    const refuse = (reasons: string[], errors: object[]) => {
      deps.invalidQueries.push({ query: String(request.query ?? raw), operationName, variables, reasons });
      answer(200, JSON.stringify({ errors }), 'invalid');
    };
    if (typeof request.query !== 'string') {
      deps.invalidQueries.push({ query: raw, operationName, variables, reasons: ['no query in the body'] });
      return answer(400, '{"errors":{"query":"Required parameter missing or invalid"}}', 'invalid');
    }

    let document;
    try {
      document = parse(request.query);
    } catch (error) {
      const e = error as GraphQLError;
      return refuse([e.message], [e.toJSON()]);
    }
    const validationErrors = validate(deps.schema, document);
    if (validationErrors.length > 0)
      return refuse(
        validationErrors.map((e) => e.message),
        validationErrors.map((e) => e.toJSON()),
      );
    const operation = getOperationAST(document, operationName);
    if (!operation)
      return refuse(
        ['no operation to run'],
        [{ message: 'An operation name is required when a document has several.' }],
      );
    call.operationName = operationName ?? operation.name?.value ?? null;
    call.rootFields = operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
    const coerced = getVariableValues(deps.schema, operation.variableDefinitions ?? [], variables);
    if (coerced.errors)
      return refuse(
        coerced.errors.map((e) => e.message),
        coerced.errors.map((e) => e.toJSON()),
      );

    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    }
    const costInput = { schema: deps.schema, operation, fragments, variables: coerced.coerced };
    const requested = requestedCost(costInput);
    call.requestedCost = requested.cost;
    if (requested.errors.length > 0)
      return refuse(
        requested.errors,
        requested.errors.map((message) => ({ message })),
      );
    if (requested.cost > SINGLE_QUERY_MAX_COST) {
      deps.invalidQueries.push({ query: request.query, operationName, variables, reasons: ['MAX_COST_EXCEEDED'] });
      const message = `Query cost is ${requested.cost}, which exceeds the single query max cost limit (${SINGLE_QUERY_MAX_COST}).`;
      const extensions = { code: 'MAX_COST_EXCEEDED', cost: requested.cost, maxCost: SINGLE_QUERY_MAX_COST };
      return answer(200, JSON.stringify({ errors: [{ message, extensions }] }), 'max_cost_exceeded');
    }
    if (deps.faults.takeThrottle() || !deps.bucket.take(requested.cost)) {
      const cost = { requestedQueryCost: requested.cost, actualQueryCost: null, throttleStatus: deps.bucket.status() };
      const errors = [
        {
          message: 'Throttled',
          extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
        },
      ];
      return answer(200, JSON.stringify({ errors, extensions: { cost } }), 'throttled');
    }

    const rejections: string[] = [];
    const context: FakeContext = {
      store: deps.store,
      faults: deps.faults,
      webhooks: deps.webhooks,
      keysInFlight,
      reject: (reason) => rejections.push(reason),
    };
    const rootValue = {
      ...queryRoot(context),
      ...inventoryMutations(context),
      ...orderEditMutations(context),
      ...webhookSubscriptionMutations(context),
      ...metafieldMutations(context),
      ...productVariantMutations(context),
      ...cartTransformQueries(context),
      ...cartTransformMutations(context),
      ...metafieldDefinitionQueries(context),
      ...metafieldDefinitionMutations(context),
    };
    const result = await execute({
      schema: deps.schema,
      document,
      rootValue,
      contextValue: context,
      variableValues: variables,
      operationName: operationName ?? undefined,
    });
    const actual = Math.min(requested.cost, actualCost(costInput, result.data as Record<string, unknown> | null));
    deps.bucket.giveBack(requested.cost - actual);
    call.actualCost = actual;
    // A refusal of protected customer data is Shopify answering, not a query that drifted.
    const drifted = (result.errors ?? []).filter((e) => e.extensions?.code !== 'ACCESS_DENIED');
    const reasons = [...rejections, ...drifted.map((e) => e.message)];
    if (reasons.length > 0) deps.invalidQueries.push({ query: request.query, operationName, variables, reasons });

    if (deps.faults.takeLostAnswer([call.operationName ?? '', ...call.rootFields])) {
      call.status = 'lost';
      call.httpStatus = 0;
      req.socket.destroy();
      return;
    }
    const cost = { requestedQueryCost: requested.cost, actualQueryCost: actual, throttleStatus: deps.bucket.status() };
    const body = {
      data: result.data ?? null,
      ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}),
      extensions: { cost },
    };
    answer(200, JSON.stringify(body), reasons.length > 0 ? 'invalid' : 'ok');
  }

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      deps.invalidQueries.push({
        query: '',
        operationName: null,
        variables: null,
        reasons: [`fake Shopify crashed: ${String(error)}`],
      });
      if (!res.headersSent) send(res, 500, JSON.stringify({ errors: String(error) }));
    });
  });
}
