// The service as shipped (logging, headers, error handling), started for a benchmark round.
import { buildApp, loggerOptions } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', SEED_DEMO: '0' });
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: config.databasePoolSize,
});
await database.migrate();
const app = await buildApp({ config, database, logger: loggerOptions(config) });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.send?.({ port: Number(new URL(address).port) });
process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
