// Writes the OpenAPI document the service serves at /openapi.json to a file (default
// build/openapi.json), without listening: the app is built over an empty in-memory database.
// `npm run lint:api` lints that file; the client package generates its types from it.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';

const output = process.argv[2] ?? 'build/openapi.json';
// A throw-away key: the document does not depend on it, and none is written anywhere.
const config = parseConfig({
  logLevel: 'silent',
  seedDemo: false,
  dataDir: 'memory://',
  auth: { secret: randomBytes(32).toString('base64url') },
});
const database = await openDatabase({ dataDir: 'memory://' });
try {
  await database.migrate();
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const document = app.swagger();
  await app.close();
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`OpenAPI document written to ${output}`);
} finally {
  await database.close();
}
