import { expect } from 'vitest';
import type { RunningServer } from '../../../src/main.js';

export interface AdminAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** The admin over plain HTTP, without a browser: a cookie jar and the page's CSRF token. */
export interface AdminHttp {
  get(path: string): Promise<AdminAnswer>;
  /** Posts a form (with the CSRF token of the last page read) and does not follow redirects. */
  post(path: string, form: Record<string, string>): Promise<AdminAnswer>;
  /** The fields (inputs with a value, selects) of the form whose action ends with `action` on the page at `path`. */
  formOn(path: string, action: string): Promise<Record<string, string>>;
  /** Sends the sign-in form as a person does: the page first, then the form. */
  signIn(email: string, password: string): Promise<AdminAnswer>;
}

/** The message beside each field of a refused form, by the field's id (`<p class="field-error" id="ID-error">`). */
export function fieldErrors(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<p class="field-error" id="([^"]+)-error">([\s\S]*?)<\/p>/g)].map(([, id, text]) => [
      id,
      text!.replace(/&#39;/g, "'"),
    ]),
  );
}

/** A staff member's browser session, signed in through the sign-in form. */
export async function adminSession(server: RunningServer, email: string, password: string): Promise<AdminHttp> {
  const http = adminBrowser(server);
  expect((await http.signIn(email, password)).status).toBe(303);
  return http;
}

/** A browser on the admin, signed out. */
export function adminBrowser(server: RunningServer): AdminHttp {
  const jar = new Map<string, string>();
  let csrfToken = '';
  const remember = (answer: Response) => {
    for (const cookie of answer.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const send = async (path: string, init: RequestInit = {}): Promise<AdminAnswer> => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await fetch(`${server.url}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie },
    });
    remember(answer);
    const text = await answer.text();
    csrfToken = /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? csrfToken;
    return { status: answer.status, headers: answer.headers, text };
  };
  const http: AdminHttp = {
    get: (path) => send(path),
    post: (path, form) =>
      send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrfToken, ...form }),
      }),
    async formOn(path, action) {
      const page = await send(path);
      const form = new RegExp(`<form[^>]*action="[^"]*${action}"[^>]*>([\\s\\S]*?)</form>`).exec(page.text);
      if (!form) throw new Error(`no form posting to …${action} on ${path}`);
      const fields: Record<string, string> = {};
      for (const input of form[1]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
        fields[input[1]!] = input[2]!;
      }
      for (const select of form[1]!.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
        const chosen =
          /<option value="([^"]*)"[^>]*selected/.exec(select[2]!) ?? /<option value="([^"]*)"/.exec(select[2]!);
        if (chosen) fields[select[1]!] = chosen[1]!;
      }
      return fields;
    },
    async signIn(email, password) {
      await send('/admin/login');
      return http.post('/admin/login', { email, password });
    },
  };
  return http;
}
