import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 (port 0) recording every request; `answer` decides each
 * status (by default 204), so a test can make it fail a given number of times.
 */
export async function startWebhookReceiver(
  answer: (request: ReceivedWebhook, index: number) => number = () => 204,
) {
  const received: ReceivedWebhook[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: ReceivedWebhook = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered: 0,
      };
      entry.answered = answer(entry, received.length);
      received.push(entry);
      res.writeHead(entry.answered).end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Resolves once `predicate` holds over what was received, or rejects after `timeoutMs`. */
    async until(predicate: (all: ReceivedWebhook[]) => boolean, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline)
          throw new Error(`receiver: condition not met after ${timeoutMs} ms (${received.length} received)`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
