import type { ValidationIssue } from '@tare/contracts';
import { PLATFORM_ID_PATTERN } from '@tare/contracts';
import { AppError } from '../errors.js';
import { DECIMAL_INTEGER_PATTERN } from '../domain/validation.js';

/**
 * Validation issues in a merchant's words, for the admin's forms and the CLI's error lines. The
 * HTTP API keeps each issue's JSON pointer and validator message (the spec's contract); this is
 * the one place that reads those messages back (each validator phrasing is stated once, in
 * domain/validation.ts and TypeBox's en_US locale) and says what to type instead.
 */

/** What each schema pattern asks for, in words; a pattern has no business reaching a person. */
const PATTERN_WORDS: Record<string, string> = {
  [PLATFORM_ID_PATTERN]: 'must be a number of 1 to 20 digits, like 5001',
  [DECIMAL_INTEGER_PATTERN]: 'must be a whole number, like 3',
  '^[0-9]{1,15}(\\.[0-9]{1,6})?$': 'must be an amount like 4.20: digits, with a dot before at most 6 decimals',
  '^[0-9]{1,10}$': 'must be 1 to 10 digits, like 12345',
  '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$':
    'must be a domain name in small letters, like shop.example.com',
  '^[A-Z]{3}$': 'must be a three-letter currency code in capitals, like EUR',
  '^[A-Za-z0-9_-]{1,100}$': 'must be 1 to 100 letters, digits, dashes or underscores',
  '^[\\x20-\\x7E]+$': 'must use only plain letters, digits, spaces and punctuation',
};

const FORMAT_WORDS: Record<string, string> = {
  'date-time': 'must be a date and time like 2026-11-26T10:30:00Z',
  date: 'must be a date like 2026-11-26',
  email: 'must be an email address, like ana@example.com',
  uri: 'must be a web address, like https://example.com',
};

const TYPE_WORDS: Record<string, string> = {
  integer: 'must be a whole number, like 3',
  number: 'must be a number, like 4.2',
  string: 'must be text',
  boolean: 'must be true or false',
  object: 'must be a group of fields in braces { }',
  array: 'must be a list in brackets [ ]',
  null: 'must be empty (null)',
};

const COMPARISON_WORDS: Record<string, (limit: string) => string> = {
  '>': (limit) => `must be more than ${limit}`,
  '>=': (limit) => `must be ${limit} or more`,
  '<': (limit) => `must be less than ${limit}`,
  '<=': (limit) => `must be ${limit} or less`,
};

/** Each validator phrasing, read back into words; the first that matches speaks. */
const RULES: [RegExp, (...parts: string[]) => string][] = [
  [/^must match pattern "(.*)"$/s, (pattern) => PATTERN_WORDS[pattern] ?? 'is not written the way Tare expects it'],
  [/^must match format "(.*)"$/, (format) => FORMAT_WORDS[format] ?? `must be a valid ${format}`],
  [/^must be (integer|number|string|boolean|object|array|null)$/, (type) => TYPE_WORDS[type]!],
  [/^must be either (.+)$/, () => 'is not a kind of value Tare accepts here'],
  [/^must be (>=|>|<=|<) (\S+)$/, (comparison, limit) => COMPARISON_WORDS[comparison]!(limit)],
  [
    /^must not have fewer than (\d+) characters$/,
    (n) => (n === '1' ? 'must not be empty' : `must be at least ${n} characters long`),
  ],
  [/^must not have more than (\d+) characters$/, (n) => `must be at most ${n} characters long`],
  [/^must not have fewer than (\d+) items$/, (n) => `needs at least ${n} ${n === '1' ? 'entry' : 'entries'}`],
  [/^must not have more than (\d+) items$/, (n) => `can have at most ${n} entries`],
  [/^must not have (?:more|fewer) than (\d+) properties$/, () => 'has a number of fields Tare does not accept'],
  [/^must be one of (.+)$/s, (list) => `must be one of: ${readableList(list)}`],
  [/^must be a numeric id string of 1 to 20 digits$/, () => PATTERN_WORDS[PLATFORM_ID_PATTERN]!],
  [/^must be equal to (?:constant|one of the allowed values)$/, () => 'is not one of the values Tare accepts here'],
  [
    /^must match (?:a schema in anyOf|exactly one schema in oneOf|".*" schema)$/,
    () => 'is not a value Tare accepts here',
  ],
  [/^must not have (?:additional|unevaluated) properties$/, () => 'has a field Tare does not know'],
  [/^must have required propert(?:y|ies) (.+)$/, (names) => `is missing ${readableList(names)}`],
  [/^unknown field '(.*)'$/s, () => 'is not a field Tare knows: check its spelling, or remove it'],
  [/^must not have duplicate items$/, () => 'must not list the same entry twice'],
  [/^must be multiple of (\S+)$/, (step) => `must be a multiple of ${step}`],
];

/** `"kg", "g"` or `kg, g` → `kg, g`; quotes that JSON added are dropped. */
function readableList(list: string): string {
  return list
    .split(/,\s*/)
    .map((item) => item.replace(/^"(.*)"$/, '$1'))
    .join(', ');
}

/** A validator's rule in words, without the field's name: `must be more than 0`. */
export function ruleInWords(message: string): string {
  for (const [pattern, words] of RULES) {
    const match = pattern.exec(message);
    if (match) return words(...match.slice(1));
  }
  return message;
}

/** One issue as a field shows it: `Price must be an amount like 4.20: …`. */
export function issueInWords(label: string, message: string): string {
  const rule = ruleInWords(message);
  // A message that names its own subject (`unit 'ml' is not valid …`) is a sentence: the field's
  // name is said once, or set before it.
  const subject = /^([a-z]+) '/.exec(rule)?.[1];
  if (subject === undefined) return `${label} ${rule}`;
  if (subject === label.toLowerCase()) return rule.charAt(0).toUpperCase() + rule.slice(1);
  return `${label}: ${rule}`;
}

const SINGULAR: Record<string, string> = { inventory: 'level', entries: 'entry', adjustments: 'adjustment' };

/**
 * Where an issue is, in words, for a reader who never saw a JSON pointer:
 * `/shops/0/products/1/variants/0/price` → `Shop 1, product 2, variant 1, price`.
 */
export function placeInWords(path: string): string {
  const segments = path
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const words: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const index = segments[i + 1];
    if (index !== undefined && /^\d+$/.test(index)) {
      words.push(`${singular(spaced(segment))} ${Number(index) + 1}`);
      i++;
    } else if (/^\d+$/.test(segment)) {
      words.push(`entry ${Number(segment) + 1}`);
    } else {
      words.push(spaced(segment));
    }
  }
  const text = words.join(', ') || 'The request';
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `requestsPerMinute` → `requests per minute`; `unitPrice_weight_value_kg` is a key, kept. */
function spaced(name: string): string {
  if (name.includes('_')) return name;
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function singular(noun: string): string {
  if (SINGULAR[noun]) return SINGULAR[noun];
  if (noun.endsWith('ies')) return `${noun.slice(0, -3)}y`;
  return noun.endsWith('s') ? noun.slice(0, -1) : noun;
}

/** One issue with its place: `Shop 1, currency must be a three-letter currency code …`. */
export function issueAtPlace(issue: ValidationIssue): string {
  return issueInWords(placeInWords(issue.path), issue.message);
}

/** One issue as a line of a list, its place first: `Shop 1, currency: unknown ISO 4217 currency 'XYZ'`. */
export function issueLine(issue: ValidationIssue): string {
  return `${placeInWords(issue.path)}: ${ruleInWords(issue.message)}`;
}

/** The validation issues an error carries (a 400 of errors.validation), else none. */
export function issuesOf(error: unknown): ValidationIssue[] {
  if (!(error instanceof AppError) || error.code !== 'bad_request') return [];
  return (error.details?.errors as ValidationIssue[] | undefined) ?? [];
}

/**
 * An error's message as a person reads it: a validation error's issues each at its place
 * (`Email must be an email address, like …`), any other error's own message.
 */
export function errorInWords(error: Error): string {
  const issues = issuesOf(error);
  if (issues.length === 0) return error.message;
  return issues.map((issue) => `${issueAtPlace(issue)}.`).join(' ');
}
