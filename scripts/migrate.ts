// Applies the migrations to the configured database (DATABASE_URL or DATA_DIR) and exits.
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  console.log(`migrations applied (${database.engine})`);
} finally {
  await database.close();
}
