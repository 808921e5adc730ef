import { describe, expect, it } from 'vitest';
import { jsonError } from './json-error.js';

describe('jsonError', () => {
  it.each([
    ['{ "shops": [ ', 1, 14, 'expected a value, but the text ends'],
    ['{\n  "a": 1,\n}', 3, 1, 'expected a property name in quotes, but unexpected "}"'],
    ['{"a": }', 1, 7, 'expected a value, but unexpected "}"'],
    ['{"a": tru}', 1, 7, 'expected a value, but unexpected "t"'],
    ['{"a" 1}', 1, 6, 'expected \':\' after the property name, but unexpected "1"'],
    ["{'a': 1}", 1, 2, 'expected a property name in quotes, but unexpected "\'"'],
    ['[1, 2\n 3]', 2, 2, "expected ',' or ']', but unexpected \"3\""],
    ['{"a": "b\nc"}', 1, 9, 'a line break or control character inside a string'],
    ['{"a": "\\x"}', 1, 9, 'an unknown escape in a string'],
    ['{"a": 01}', 1, 8, 'expected a value, but unexpected "1"'],
    ['{"a": 1} x', 1, 10, 'unexpected "x" after the end of the document'],
    ['', 1, 1, 'expected a value, but the text ends'],
  ])('when the text is %j, then it stops at line %i, column %i: %s', (text, line, column, problem) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonError(text)).toEqual({ line, column, problem });
  });

  it.each(['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"]}\n', '"x"', '0'])(
    'when the text %j is valid JSON, then there is no error',
    (text) => {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(jsonError(text)).toBeUndefined();
    },
  );
});
