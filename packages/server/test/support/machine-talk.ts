/**
 * What no merchant may read in the admin or the CLI (issue 25): a JSON pointer, a regular
 * expression, a validator's keyword, or the API's own wording of a validation error.
 */
export const MACHINE_TALK: [what: string, pattern: RegExp][] = [
  ['a JSON pointer', /(^|[\s(:'"“])\/[A-Za-z_~][\w~-]*(\/|\b)/],
  ['a regular expression', /\^\[|\]\{|\{\d+,\d*\}|\\d|\$"|\(\?:/],
  [
    'a validator keyword',
    /must match (pattern|format|a schema)|must be (integer|number|string|boolean|[<>]=?)( |$|\.)|must have required propert|must not have (fewer|more) than|additional properties|equal to constant|anyOf|oneOf|numeric id string/,
  ],
  ['the API’s wording', /The request is invalid/],
];

/** The kinds of machine talk `text` holds (none: `[]`). */
export function machineTalkIn(text: string): string[] {
  return MACHINE_TALK.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${what} in “${text}”`);
}
