// Loads the demo shop into the configured database (DATABASE_URL or DATA_DIR) on demand.
// Idempotent: a catalog that already has products is left alone.
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { openMediaStorage } from '../src/modules/media/storage/index.ts';
import { demoLogins, seedDemoShop } from '../src/seed/seed.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  // The pictures go where the service reads them (media.dir or the bucket).
  const result = await seedDemoShop(database.db, new Date(), openMediaStorage(config));
  if (result.seeded) console.log(demoLogins(config, result.counts));
  else console.log(`The catalog already has ${result.products} products; the demo shop was not loaded.`);
} finally {
  await database.close();
}
