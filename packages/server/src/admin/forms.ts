import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, errors } from '../errors.js';
import { issueAtPlace, issueInWords, issuesOf } from '../messages/issue-words.js';

/** What a form acts on, as its route reads it: `['inventory', locationId, variantId, 'adjust']`. */
export type FormTarget = readonly string[];

/**
 * Ids for rendered forms: a form's first post applies, a second one (a double click) does not.
 * Each id is signed with what the form acts on, so one issued for a level (an order, a locale)
 * posted to another is refused, rather than found already done there and answered "saved".
 */
export function createFormIds(secret: Buffer) {
  const signature = (nonce: string, target: FormTarget) =>
    createHmac('sha256', secret)
      .update(JSON.stringify([nonce, ...target]))
      .digest()
      .subarray(0, 16);
  return {
    /** A fresh id for one rendered form acting on `target`: `<nonce>.<signature>`. */
    issue(target: FormTarget): string {
      const nonce = randomBytes(16).toString('base64url');
      return `${nonce}.${signature(nonce, target).toString('base64url')}`;
    },
    /** The posted form's id when it was issued for `target`; otherwise 400, nothing changed. */
    posted(body: unknown, target: FormTarget): string {
      const formId = field(body, 'formId');
      if (!formId) throw errors.badRequest('The form has no formId; reload the page.');
      const [nonce = '', signed = ''] = formId.split('.');
      const expected = signature(nonce, target);
      const sent = Buffer.from(signed, 'base64url');
      if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
        throw errors.badRequest(
          'This form was made for another page; nothing was changed. Reload the page and send it again.',
        );
      }
      return formId;
    },
  };
}
export type FormIds = ReturnType<typeof createFormIds>;

/** A string field of a posted form ('' when absent; a repeated field is not a string). */
export function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * A service's validation error as the form shows it: each issue once, beside its field (by the
 * pointer's first segment, or as `fieldOf` maps the pointer), in words and named by its label
 * (issueInWords); the top of the form only counts them. An issue no field holds is said at the top.
 */
export function formIssues(
  error: unknown,
  labels: Record<string, string> = {},
  fieldOf: (path: string) => string = (path) => path.split('/')[1] ?? '',
): { summary: string; issues: Record<string, string> } | undefined {
  if (!(error instanceof AppError) || error.code !== 'bad_request') return undefined;
  const list = issuesOf(error);
  if (list.length === 0) return { summary: error.message, issues: {} };
  const issues: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const issue of list) {
    const name = fieldOf(issue.path);
    if (name && labels[name]) issues[name] ??= issueInWords(labels[name], issue.message);
    else elsewhere.push(`${issueAtPlace(issue)}.`);
  }
  return { summary: [problemsSummary(Object.keys(issues).length), ...elsewhere].join(' '), issues };
}

/** The top of a refused form: how many problems, shown beside their fields. */
export function problemsSummary(count: number): string {
  if (count === 0) return 'Nothing was saved.';
  return `Nothing was saved: ${count} problem${count === 1 ? '' : 's'} to fix, shown beside the field${count === 1 ? '' : 's'}.`;
}
