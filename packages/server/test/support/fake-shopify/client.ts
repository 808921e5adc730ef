import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test-side helpers around the fake: a bare Admin API request (what any client sends), and a
 * webhook receiver that records what it is sent and answers with a chosen status.
 */
export async function adminRequest(
  target: { adminApiUrl: string; accessToken: string },
  query: string,
  variables: Record<string, unknown> = {},
  options: { accessToken?: string } = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(target.adminApiUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-access-token': options.accessToken ?? target.accessToken,
    },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: await response.json() };
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: any;
}

export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  /** Statuses to answer, in turn; 200 once they are used up. */
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined; // kept raw: a test may send a body that is not JSON
      }
      received.push({ headers: req.headers, rawBody, body });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/shopify`,
    received,
    statuses,
    topics: () => received.map((r) => String(r.headers['x-shopify-topic'] ?? r.headers['shopify-topic'])),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
