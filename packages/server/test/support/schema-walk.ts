/**
 * Walks JSON schemas (the routes' and the import file's, as TypeBox writes them) so that tests
 * derive the fields they try from the schemas themselves: a field added later is tried too.
 */

type Schema = Record<string, unknown>;

export interface FieldLocation {
  /** JSON pointer segments; an array's items are tried at index 0, a record's values at key `key`. */
  segments: string[];
  /**
   * Where the value goes: a `value`, or a record's `key` (the last segment names the record).
   * `constrained` fields (a pattern, an enum, a constant) already refuse most text.
   */
  kind: 'value' | 'key';
  constrained: boolean;
}

const isSchema = (x: unknown): x is Schema => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A record's value schema: `patternProperties` or a schema-valued `additionalProperties`. */
function recordValues(schema: Schema): Schema | undefined {
  const patterns = schema.patternProperties;
  if (isSchema(patterns)) return Object.values(patterns).find(isSchema);
  return isSchema(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** The record values of `schema` or of the record among its union's branches. */
function anyRecordValues(schema: unknown): Schema | undefined {
  if (!isSchema(schema)) return undefined;
  return (
    recordValues(schema) ??
    branches(schema)
      .map(recordValues)
      .find((values) => values !== undefined)
  );
}

function branches(schema: Schema): Schema[] {
  return [schema.anyOf, schema.oneOf, schema.allOf]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .filter(isSchema);
}

function isStringSchema(schema: Schema): boolean {
  const { type } = schema;
  if (type === 'string' || (Array.isArray(type) && type.includes('string'))) return true;
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  return values.length > 0 && values.every((v) => typeof v === 'string');
}

/** Every place in `schema` where a string goes, object keys of records included. */
export function stringLocations(schema: unknown, segments: string[] = []): FieldLocation[] {
  if (!isSchema(schema)) return [];
  const found: FieldLocation[] = [];
  if (isStringSchema(schema)) {
    const constrained = 'pattern' in schema || 'enum' in schema || 'const' in schema || 'format' in schema;
    found.push({ segments, kind: 'value', constrained });
  }
  const alternatives = branches(schema);
  if (alternatives.length) {
    const inner = alternatives.flatMap((branch) => stringLocations(branch, segments));
    // A union of a string and something else: the string is as constrained as its branch.
    found.push(...inner.filter((l, i) => inner.findIndex((o) => o.segments.join('/') === l.segments.join('/')) === i));
  }
  if (isSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      found.push(...stringLocations(property, [...segments, name]));
    }
  }
  const values = recordValues(schema);
  if (values) {
    found.push({ segments, kind: 'key', constrained: false });
    found.push(...stringLocations(values, [...segments, 'key']));
  }
  if (isSchema(schema.items)) found.push(...stringLocations(schema.items, [...segments, '0']));
  return found;
}

/** Top-level properties of an object schema (a query string or path params) that are integers. */
export function integerProperties(schema: unknown): string[] {
  if (!isSchema(schema) || !isSchema(schema.properties)) return [];
  return Object.entries(schema.properties)
    .filter(([, property]) => isSchema(property) && property.type === 'integer')
    .map(([name]) => name);
}

/** Texts a pattern without an example might accept, tried in order. */
const PATTERN_GUESSES = ['1', 'a', 'AAA', 'a.example', '1.00'];

/**
 * A value `schema` accepts, from its examples or default, else built from its required parts:
 * what the tests start from before they put one bad value in.
 */
export function sampleOf(schema: unknown): unknown {
  if (!isSchema(schema)) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length) return structuredClone(schema.examples[0]);
  if ('default' in schema) return structuredClone(schema.default);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alternatives = branches(schema);
  if (alternatives.length) return sampleOf(alternatives.find((b) => b.type !== 'null') ?? alternatives[0]);
  switch (schema.type) {
    case 'string': {
      const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined;
      return pattern ? PATTERN_GUESSES.find((guess) => pattern.test(guess)) : 'x';
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => sampleOf(schema.items));
    case 'object': {
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(required.map((name) => [name, sampleOf(properties[name])]));
    }
    default:
      return null;
  }
}

/** The branch of a union that can hold `segment` (an array for an index, else an object). */
function shapeFor(schema: unknown, segment: string): Schema {
  if (!isSchema(schema)) return {};
  const alternatives = branches(schema);
  if (!alternatives.length) return schema;
  const holds = (branch: Schema) =>
    /^[0-9]+$/.test(segment)
      ? branch.type === 'array'
      : (isSchema(branch.properties) && segment in branch.properties) || recordValues(branch) !== undefined;
  return alternatives.find(holds) ?? schema;
}

/** The subschema one step down: a property, an array's items or a record's values. */
function childOf(shape: Schema, segment: string): unknown {
  if (isSchema(shape.properties) && segment in shape.properties) return shape.properties[segment];
  return isSchema(shape.items) ? shape.items : recordValues(shape);
}

function fits(value: unknown, shape: Schema): boolean {
  if (shape.type === 'array') return Array.isArray(value);
  if (shape.type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return true;
}

/**
 * A copy of `base` with `text` put at `location`: as the value there, or as a new key of the
 * record there. A container missing on the way, or of another branch of a union than the one
 * the location is in, is replaced by `sampleOf` that branch.
 */
export function withText(base: unknown, schema: unknown, location: FieldLocation, text: string): unknown {
  const root: Record<string, unknown> = { value: structuredClone(base) };
  const path = location.kind === 'value' ? location.segments : [...location.segments, text];
  let parent = root;
  let key = 'value';
  let current = schema;
  for (const [i, segment] of path.entries()) {
    const shape = shapeFor(current, segment);
    if (!fits(parent[key], shape)) parent[key] = sampleOf(shape);
    const container = parent[key] as Record<string, unknown>;
    if (i === path.length - 1) {
      container[segment] = location.kind === 'value' ? text : sampleOf(anyRecordValues(shape));
      break;
    }
    parent = container;
    key = segment;
    current = childOf(shape, segment);
  }
  return root.value;
}

/** The JSON pointer of `location` with `text` as the key, when it is a key. */
export function pointerOf(location: FieldLocation, text: string): string {
  const segments = location.kind === 'key' ? [...location.segments, text] : location.segments;
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
