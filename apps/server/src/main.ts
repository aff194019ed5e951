// `npm start`: read the environment, start everything, say how to log in.
import { ConfigError, loadConfig } from './config.ts';
import { startRestartable } from './server-info/restarter.ts';

/** How long a stop may take before the process exits regardless (service managers wait ~10 s before SIGKILL). */
const SHUTDOWN_DEADLINE_MS = 5_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Rastro cannot start: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  // POST /api/server/restart restarts in place: close this instance, start a new one.
  const server = await startRestartable(config, {
    logger: true,
    onRestart: (phase) => console.log(phase === 'stopping' ? 'Restart requested: stopping Rastro' : 'Rastro restarted'),
    onRestartError: (error) => {
      console.error('Rastro could not restart:', error);
      process.exit(1);
    },
  });
  const rastro = server.current;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${host}:${rastro.port}`;
  console.log(`\nRastro is running: ${url}`);
  console.log(`Database: ${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}`);
  if (rastro.osmandPort) console.log(`OsmAnd devices: http://${host}:${rastro.osmandPort}/?id=<uniqueId>&lat=..&lon=..`);
  if (rastro.generatedAdminPassword) {
    console.log(`Log in as "admin" with the password: ${rastro.generatedAdminPassword}`);
    console.log('(shown only this once; set RASTRO_ADMIN_PASSWORD to choose it)');
  } else {
    console.log('Log in as "admin" with the administrator password.');
  }

  // Stopping drains what it can (queued writes, open answers) but never hangs: after
  // SHUTDOWN_DEADLINE_MS the process exits anyway, and a second signal exits at once.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      console.error(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    console.log(`\n${signal}: stopping Rastro`);
    setTimeout(() => {
      console.error(`Rastro did not stop within ${SHUTDOWN_DEADLINE_MS / 1000} s: exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    try {
      await server.close();
    } catch (error) {
      console.error('Rastro did not stop cleanly:', error);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

void main().catch((error: unknown) => {
  console.error('Rastro failed to start:', error);
  process.exit(1);
});
