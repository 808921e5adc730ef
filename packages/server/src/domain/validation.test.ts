import { describe, expect, it } from 'vitest';
import { toIssues, unstorableTextErrors } from './validation.js';

const NUL = 'must not contain the NUL character (U+0000)';
const LONE = 'must be well-formed Unicode (it contains a lone surrogate)';

const issuesOf = (value: unknown) => toIssues(unstorableTextErrors(value));

describe('unstorableTextErrors', () => {
  it.each([
    ['plain text', 'Weighed again at the counter'],
    ['accents and CJK', 'Crème brûlée 抹茶'],
    ['a surrogate pair (an emoji)', 'ribbon 🎀'],
    ['an empty string', ''],
    ['U+FFFD itself', 'a\ufffdb'],
  ])('when a string holds %s, then it is storable', (_, text) => {
    expect(unstorableTextErrors({ note: text, list: [text], [text]: 1 })).toEqual([]);
  });

  it.each([
    ['a NUL', 'a\u0000b', NUL],
    ['a lone high surrogate', 'a\ud800b', LONE],
    ['a lone low surrogate', 'a\udc00b', LONE],
    ['a high surrogate at the end', 'ab\ud83c', LONE],
    ['a low surrogate after a pair', '🎀\udf80', LONE],
    ['a NUL and a lone surrogate', '\u0000\ud800', NUL],
  ])('when a string holds %s, then its pointer is named', (_, text, message) => {
    expect(issuesOf({ edits: [{ unit: 'kg' }, { unit: text }] })).toEqual([{ path: '/edits/1/unit', message }]);
  });

  it('when a key holds a NUL, then its pointer is named, escaped as a JSON pointer', () => {
    expect(issuesOf({ labels: { 'a/b~\u0000': 'x' } })).toEqual([
      { path: '/labels/a~1b~0\u0000', message: `has a field name that ${NUL}` },
    ]);
  });

  it('when several strings are bad, then each is named once, in document order', () => {
    expect(issuesOf({ a: 'x\u0000', b: ['ok', '\ud800'], c: { d: '\u0000' } }).map((i) => i.path)).toEqual([
      '/a',
      '/b/1',
      '/c/d',
    ]);
  });

  it('when the value is a bare string, then the pointer is the root', () => {
    expect(issuesOf('\u0000')).toEqual([{ path: '/', message: NUL }]);
  });

  it('when a body nests 200,000 arrays deep, then it is walked without exhausting the stack', () => {
    let deep: unknown = 'a\u0000b';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unstorableTextErrors(deep)).toHaveLength(1);
  });
});
