// R, the baseline: a bare node:http server answering a pre-serialized JSON body of a given size.
import { createServer } from 'node:http';

const size = Number(process.env.BENCH_BODY_BYTES ?? 64);
const filler = Math.max(0, size - '{"success":true,"data":""}'.length);
const body = Buffer.from(JSON.stringify({ success: true, data: 'x'.repeat(filler) }));
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
