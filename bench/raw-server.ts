// R, the baseline: a bare node:http server answering the bytes of a file (the scenario's own
// answer, BENCH_BODY_FILE), or a JSON body of a given size (BENCH_BODY_BYTES).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

function jsonOfSize(size: number): Buffer {
  const filler = Math.max(0, size - '{"success":true,"data":""}'.length);
  return Buffer.from(JSON.stringify({ success: true, data: 'x'.repeat(filler) }));
}

const file = process.env.BENCH_BODY_FILE;
const body = file ? readFileSync(file) : jsonOfSize(Number(process.env.BENCH_BODY_BYTES ?? 64));
const type = process.env.BENCH_BODY_TYPE ?? 'application/json; charset=utf-8';
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
