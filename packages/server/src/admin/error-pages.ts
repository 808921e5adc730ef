import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { errorInWords } from '../messages/issue-words.js';
import { sendPage } from './render.js';
import { csrfTokenFor } from './staff.js';

function messagePage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  content: { title: string; message: string; showRequestId?: boolean },
) {
  let csrfToken = '';
  try {
    csrfToken = csrfTokenFor(request, reply);
  } catch {
    // the page still renders; its sign-out button then needs a reload
  }
  return sendPage(reply, status, 'message', { ...content, staff: request.staff, csrfToken });
}

/** The same answer for a page that does not exist and another shop's resource. */
export function notFoundPage(request: FastifyRequest, reply: FastifyReply) {
  return messagePage(request, reply, 404, {
    title: 'Not found',
    message: 'There is no such page in this shop’s admin.',
  });
}

/** Admin pages answer in HTML: a refused form (CSRF) is 403, a missing resource 404, a bug 500. */
export function adminErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
    return messagePage(request, reply, 403, {
      title: 'Form refused',
      message:
        'This form was not sent from a page of your current session (it may be from before you signed in, or from another site). Nothing was changed. Go back, reload the page and send it again.',
    });
  }
  if (error instanceof AppError && error.code === 'not_found') return notFoundPage(request, reply);
  // The asset files' refusal of a path outside their folder (`/admin/assets/../x`): no such page.
  if (!(error instanceof AppError) && (error.statusCode === 403 || error.statusCode === 404)) {
    return notFoundPage(request, reply);
  }
  if (error instanceof AppError && error.status < 500) {
    return messagePage(request, reply, error.status, { title: 'Request refused', message: errorInWords(error) });
  }
  if (error.statusCode === 413) {
    return messagePage(request, reply, 413, { title: 'Too large', message: 'The form sent was too large.' });
  }
  if (error.statusCode === 415 || error.statusCode === 400) {
    return messagePage(request, reply, error.statusCode, {
      title: 'Request refused',
      message: 'The form could not be read; send it from the admin page.',
    });
  }
  request.log.error({ err: error }, 'admin request failed');
  return messagePage(request, reply, 500, {
    title: 'Something went wrong',
    message: 'The page could not be shown. Try again, and quote the request id below to support if it persists.',
    showRequestId: true,
  });
}
