import pg from 'pg';
import type { ListenHandlers } from './engine.ts';

// PostgreSQL's LISTEN on a connection of its own (a pooled connection cannot hold it): lost when
// that connection fails or ends, then opened again every RETRY_MS until it listens again.

const RETRY_MS = 200;
/** How the listening connection shows in pg_stat_activity (and how a fault test finds it). */
export const LISTENER_APPLICATION_NAME = 'shop-listener';

export async function listenOnPostgres(
  url: string,
  connectMs: number,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: connectMs,
      keepAlive: true,
      application_name: LISTENER_APPLICATION_NAME,
    });
    client.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) handlers.message(n.payload);
    });
    const onGone = () => lose(client);
    client.on('error', onGone);
    client.on('end', onGone);
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      client.removeListener('end', onGone);
      await client.end().catch(() => {});
      throw err;
    }
    current = client;
  };
  const lose = (client: pg.Client): void => {
    if (current !== client) return;
    current = undefined;
    client.end().catch(() => {});
    if (stopped) return;
    handlers.lost();
    retry = setTimeout(reopen, RETRY_MS);
  };
  const reopen = (): void => {
    connect().then(
      () => (stopped ? current?.end().catch(() => {}) : handlers.back()),
      () => {
        if (!stopped) retry = setTimeout(reopen, RETRY_MS);
      },
    );
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}
