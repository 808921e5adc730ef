/**
 * Where JSON text stops being valid, as 1-based line and column, with what was wrong there.
 * `JSON.parse` says where only for some mistakes; this scanner reads the grammar of RFC 8259
 * and stops at the first character that cannot continue it. Undefined for valid JSON.
 *
 * @example jsonError('{\n  "a": 1,\n}') // { line: 3, column: 1, problem: 'expected a property name in quotes, but unexpected "}"' }
 */
export function jsonError(text: string): { line: number; column: number; problem: string } | undefined {
  let at = 0;
  const fail = (problem: string): never => {
    throw new Stop(at, problem);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const describe = () => (at >= text.length ? 'the text ends' : `unexpected ${JSON.stringify(text[at])}`);

  const string = () => {
    at++; // the opening quote
    for (;;) {
      if (at >= text.length) fail('a string is not closed');
      const c = text[at]!;
      if (c === '"') return void at++;
      if (c < ' ') fail('a line break or control character inside a string');
      if (c === '\\') {
        at++;
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail('\\u needs four hex digits');
          at += 5;
          continue;
        }
        if (at >= text.length || !'"\\/bfnrt'.includes(text[at]!)) fail('an unknown escape in a string');
      }
      at++;
    }
  };

  const value = (): void => {
    space();
    const c = text[at];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 400));
    if (!literal) fail(`expected a value, but ${describe()}`);
    at += literal![0].length;
    if (/^[\w.]/.test(text[at] ?? '')) fail(`expected a value, but ${describe()}`);
  };

  const object = () => {
    at++;
    space();
    if (text[at] === '}') return void at++;
    for (;;) {
      space();
      if (text[at] !== '"') fail(`expected a property name in quotes, but ${describe()}`);
      string();
      space();
      if (text[at] !== ':') fail(`expected ':' after the property name, but ${describe()}`);
      at++;
      value();
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === '}') return void at++;
      fail(`expected ',' or '}', but ${describe()}`);
    }
  };

  const array = () => {
    at++;
    space();
    if (text[at] === ']') return void at++;
    for (;;) {
      value();
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === ']') return void at++;
      fail(`expected ',' or ']', but ${describe()}`);
    }
  };

  try {
    value();
    space();
    if (at < text.length) fail(`unexpected ${JSON.stringify(text[at])} after the end of the document`);
    return undefined;
  } catch (error) {
    if (error instanceof RangeError) return undefined; // nested deeper than the call stack
    if (!(error instanceof Stop)) throw error;
    const before = text.slice(0, error.at).split('\n');
    return { line: before.length, column: before.at(-1)!.length + 1, problem: error.problem };
  }
}

class Stop {
  constructor(
    readonly at: number,
    readonly problem: string,
  ) {}
}
