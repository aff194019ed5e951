// `npm start`: read the environment, start everything, say how to log in.
import { ConfigError, loadConfig } from './config.ts';
import { startRastro } from './rastro.ts';

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
  const rastro = await startRastro(config, { logger: true });
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

  const shutdown = async (signal: string) => {
    console.log(`\n${signal}: stopping Rastro`);
    await rastro.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

void main().catch((error: unknown) => {
  console.error('Rastro failed to start:', error);
  process.exit(1);
});
