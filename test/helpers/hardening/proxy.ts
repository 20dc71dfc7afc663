import { connect, createServer, type Server, type Socket } from 'node:net';

// A TCP proxy between the app and PostgreSQL that can misbehave on demand: add latency, cut
// every open connection, refuse new ones, or swallow traffic (a network partition).

export type ProxyMode = 'pass' | 'refuse' | 'blackhole';

export interface FaultProxy {
  port: number;
  /** Delay of every chunk, both ways (order kept). */
  latencyMs: number;
  mode: ProxyMode;
  /** Destroys every open connection, as a failed network or a killed backend would. */
  cutAll(): number;
  open(): number;
  close(): Promise<void>;
}

export async function startProxy(upstreamPort: number, upstreamHost = '127.0.0.1'): Promise<FaultProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const state = { latencyMs: 0, mode: 'pass' as ProxyMode };

  /** Forwards `from` → `to`, each chunk after the current latency, in order. */
  const forward = (from: Socket, to: Socket) => {
    let chain = Promise.resolve();
    from.on('data', (chunk) => {
      if (state.mode === 'blackhole') return;
      const delay = state.latencyMs;
      chain = chain.then(
        () =>
          new Promise<void>((resolve) => {
            const send = () => {
              if (!to.destroyed) to.write(chunk);
              resolve();
            };
            if (delay > 0) setTimeout(send, delay);
            else send();
          }),
      );
    });
  };

  const server: Server = createServer((client) => {
    if (state.mode === 'refuse') {
      client.destroy();
      return;
    }
    const upstream = connect(upstreamPort, upstreamHost);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const done = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of pair) {
      s.on('error', done);
      s.on('close', done);
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    get latencyMs() {
      return state.latencyMs;
    },
    set latencyMs(ms: number) {
      state.latencyMs = ms;
    },
    get mode() {
      return state.mode;
    },
    set mode(mode: ProxyMode) {
      state.mode = mode;
    },
    cutAll: () => {
      const n = pairs.size;
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      pairs.clear();
      return n;
    },
    open: () => pairs.size,
    close: async () => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
