// In-process restart (POST /api/server/restart): the running instance is closed (HTTP, device
// ports, storage) and a new one starts from the same config in the same process, on the ports
// the old one actually used. The host is never rebooted and the process never exits, so a
// restart works the same under systemd, Docker or a plain `npm start`. Sessions and tokens live
// in the database, so logged-in users stay logged in.
import type { Config } from '../config.ts';
import { startRastro, type Rastro, type StartOptions } from '../rastro.ts';

export interface Restartable {
  /** The instance serving now (changes after each restart). */
  readonly current: Rastro;
  /** Resolves with the new instance once a restart in progress has finished. */
  whenRestarted(): Promise<Rastro>;
  close(): Promise<void>;
}

export interface RestartableOptions extends Omit<StartOptions, 'onRestart'> {
  /** Told when a restart begins and ends (main.ts prints it; tests observe it). */
  onRestart?: (phase: 'stopping' | 'started', rastro: Rastro) => void;
  /** A restart that cannot start the new instance (port taken, database down). */
  onRestartError?: (error: unknown) => void;
}

export async function startRestartable(config: Config, options: RestartableOptions = {}): Promise<Restartable> {
  const { onRestart, onRestartError, ...startOptions } = options;
  let current: Rastro;
  let restarting: Promise<Rastro> | null = null;
  let closed = false;

  // The request that asked for the restart has been answered; failures go to onRestartError.
  const start = (cfg: Config) =>
    startRastro(cfg, { ...startOptions, onRestart: () => void restart().catch(() => undefined) });

  async function restart(): Promise<Rastro> {
    if (restarting) return restarting;
    const old = current;
    restarting = (async () => {
      onRestart?.('stopping', old);
      await old.close();
      // Same ports as before, even when the config asked for "any free port" (0).
      const next = await start({
        ...config,
        port: old.port,
        osmandPort: old.osmandPort > 0 ? old.osmandPort : config.osmandPort,
      });
      if (closed) {
        await next.close();
        return next;
      }
      current = next;
      onRestart?.('started', next);
      return next;
    })();
    try {
      return await restarting;
    } catch (error) {
      if (onRestartError) onRestartError(error);
      else console.error('Rastro restart failed:', error);
      throw error;
    } finally {
      restarting = null;
    }
  }

  current = await start(config);
  return {
    get current() {
      return current;
    },
    whenRestarted: () => restarting ?? Promise.resolve(current),
    async close() {
      closed = true;
      if (restarting) await restarting.catch(() => undefined);
      await current.close();
    },
  };
}
