import { buildApp, loggerOptions } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';
import { seedDemoAtStart } from './seed/seed.ts';

/** One line per stage of the start, with the seconds since the process began: a first start is not silent. */
function progress(text: string): void {
  console.log(`[start ${(performance.now() / 1000).toFixed(1)} s] ${text}`);
}

async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    onStage: progress,
  });
  progress(`database open (${database.engine})`);
  await database.migrate();
  progress('migrations applied');
  const app = await buildApp({ config, database, logger: loggerOptions(config.logLevel) });
  progress('routes and schemas ready');
  // An empty catalog gets the demo shop (SEED_DEMO=0 turns it off), its pictures in the app's
  // media storage; the logins are printed once.
  const print = (text: string) => console.log(text);
  if (await seedDemoAtStart(database.db, config, print, app.mediaStorage)) progress('demo shop loaded');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.lifecycle.shuttingDown = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const deadline = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.http.shutdownGraceMs);
    deadline.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const address = await app.listen({ host: config.host, port: config.port });
  const base = address.replace('0.0.0.0', '127.0.0.1');
  app.log.info({ api: `${base}/rest`, docs: `${base}/docs`, database: database.engine }, 'listening');
  console.log(`Shop API ready at ${base}/rest — docs at ${base}/docs (${database.engine})`);
  // A supervising process that started this one with an IPC channel (the benchmarks, PORT=0) learns the port.
  process.send?.({ port: Number(new URL(address).port) });
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`Cannot start: ${err.message}`);
  } else {
    console.error('Cannot start:', err);
  }
  process.exit(1);
});
