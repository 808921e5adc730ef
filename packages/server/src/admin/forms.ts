import { randomBytes } from 'node:crypto';
import type { ValidationIssue } from '@tare/contracts';
import { AppError } from '../errors.js';

/** A fresh id for one rendered form: its first post applies, a second one (a double click) does not. */
export function newFormId(): string {
  return randomBytes(16).toString('base64url');
}

/** A string field of a posted form ('' when absent; a repeated field is not a string). */
export function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * A service's validation error as the form shows it: the API's message at the top (`The request
 * is invalid: /name …`) and each issue beside its field (by the pointer's first segment, or as
 * `fieldOf` maps the pointer), named by its label.
 */
export function formIssues(
  error: unknown,
  labels: Record<string, string> = {},
  fieldOf: (path: string) => string = (path) => path.split('/')[1] ?? '',
): { summary: string; issues: Record<string, string> } | undefined {
  if (!(error instanceof AppError) || error.code !== 'bad_request') return undefined;
  const list = (error.details?.errors as ValidationIssue[] | undefined) ?? [];
  const issues: Record<string, string> = {};
  for (const issue of list) {
    const name = fieldOf(issue.path);
    issues[name] ??= `${labels[name] ?? name} ${issue.message}`;
  }
  return { summary: error.message, issues };
}
