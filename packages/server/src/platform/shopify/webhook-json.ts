import secureJson from 'secure-json-parse';

/**
 * Parses a webhook body exactly: Shopify's REST payloads carry ids as JSON numbers, which are
 * 64-bit and lose digits past 2^53 in a JavaScript number. Integers of 16 digits or more are
 * read as strings (their digits as sent). Throws a SyntaxError when the text is not JSON.
 *
 * @example parseWebhookJson('{"id":820982911946154508}') // { id: '820982911946154508' }
 */
export function parseWebhookJson(text: string): unknown {
  // Valid first, as JSON.parse defines it: the rewrite below then only meets values.
  const parsed: unknown = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  const exact = quoteLongIntegers(text);
  return exact === text ? parsed : JSON.parse(exact);
}

/** `text` with every integer literal of 16 digits or more (outside strings) put in quotes. */
function quoteLongIntegers(text: string): string {
  let out = '';
  let from = 0;
  let at = 0;
  while (at < text.length) {
    const c = text[at]!;
    if (c === '"') {
      at++;
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      at++;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const token = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at, at + 400))![0];
      if (/^-?\d{16,}$/.test(token)) {
        out += `${text.slice(from, at)}"${token}"`;
        from = at + token.length;
      }
      at += token.length;
      continue;
    }
    at++;
  }
  return from === 0 ? text : out + text.slice(from);
}
