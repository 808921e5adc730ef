/**
 * `tare shopify run-function cart-transform`: the checkout function run here, as Shopify's CLI
 * `shopify app function run` runs it: the input JSON (the shape of its input query) on stdin,
 * its output JSON on stdout, exit 0 whatever the cart holds. Needs no store and no settings.
 */
import {
  cartTransformRun,
  type CartTransformRunInput,
} from '../../../../extensions/cart-transform/src/cart_transform_run.js';
import { CommandError, type CommandIo, UsageError } from './command.js';
import { jsonError } from './json-error.js';

export const SHOPIFY_USAGE = `usage:
  tare shopify run-function cart-transform < input.json
      runs the Cart Transform function (extensions/cart-transform) on its input JSON and prints its output`;

export async function runShopifyCommand(
  args: string[],
  readStdin: () => Promise<string>,
  io: CommandIo,
): Promise<number> {
  const [verb, name, ...rest] = args;
  if (verb !== 'run-function') throw new UsageError(`unknown shopify command '${verb ?? ''}'`, SHOPIFY_USAGE);
  if (name !== 'cart-transform') throw new UsageError(`unknown function '${name ?? ''}'`, SHOPIFY_USAGE);
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`, SHOPIFY_USAGE);
  io.out(JSON.stringify(cartTransformRun(readInput(await readStdin()))));
  return 0;
}

function readInput(text: string): CartTransformRunInput {
  const broken = jsonError(text);
  if (broken)
    throw new CommandError(`the input is not JSON: line ${broken.line}, column ${broken.column}: ${broken.problem}`);
  const input: unknown = JSON.parse(text);
  const problem = inputProblem(input);
  if (problem)
    throw new CommandError(`the input is not the function's input (src/cart_transform_run.graphql): ${problem}`);
  return input as CartTransformRunInput;
}

/** The schema's `Decimal`: decimal text (`"29.99"`). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
/** A nullable field of the query: absent, null, or an object whose `value` is a string (or null where allowed). */
const valueHolder = (x: unknown, nullValue: boolean) =>
  x === undefined ||
  x === null ||
  (isObject(x) && (typeof x['value'] === 'string' || (nullValue && x['value'] == null)));

/** What makes `input` other than what the input query returns, or undefined. */
function inputProblem(input: unknown): string | undefined {
  if (!isObject(input)) return 'it must be an object';
  const shop = input['shop'];
  if (shop !== undefined && shop !== null && !(isObject(shop) && valueHolder(shop['metafield'], false))) {
    return 'shop.metafield must be null or { value: string }';
  }
  const cart = input['cart'];
  if (!isObject(cart) || !Array.isArray(cart['lines'])) return 'cart.lines must be an array';
  for (const [i, line] of cart['lines'].entries()) {
    const at = `cart.lines[${i}]`;
    if (!isObject(line)) return `${at} must be an object`;
    if (typeof line['id'] !== 'string') return `${at}.id must be a string`;
    if (!Number.isSafeInteger(line['quantity'])) return `${at}.quantity must be an integer`;
    if (!valueHolder(line['attribute'], true)) return `${at}.attribute must be null or { value: string }`;
    const cost = isObject(line['cost']) ? line['cost']['amountPerQuantity'] : undefined;
    if (!isObject(cost) || !DECIMAL.test(String(cost['amount'])) || typeof cost['currencyCode'] !== 'string') {
      return `${at}.cost.amountPerQuantity must be { amount: decimal text, currencyCode: string }`;
    }
    const merchandise = line['merchandise'];
    if (!isObject(merchandise)) return `${at}.merchandise must be an object`;
    if (!valueHolder(merchandise['metafield'], false))
      return `${at}.merchandise.metafield must be null or { value: string }`;
  }
  return undefined;
}
