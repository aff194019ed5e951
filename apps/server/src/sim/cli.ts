// The command line of the device simulator (`npm run simulate -- …`, scripts/simulate.ts):
// reads the flags, optionally adds the devices through the REST API, runs the fleet and prints
// a summary every few seconds and when it stops.
import { parseArgs } from 'node:util';
import { PROTOCOLS } from '../ingest/protocols.ts';
import { createDevices } from './create-devices.ts';
import type { SimProtocol } from './encoders/encoder.ts';
import { SIM_PROTOCOLS, isSimProtocol } from './encoders/encoders.ts';
import { Simulator, fleetDevice, type SimulatorOptions } from './simulator.ts';
import { errorLines, statsLine } from './tracker-stats.ts';

const HELP = `Usage: npm run simulate -- --protocol <${SIM_PROTOCOLS.join('|')}|all>[,…] [options]
  --devices N        simulated trackers (default 10), shared out among the protocols
  --first N          number of the first tracker (default 0): ids follow from it, so that
                     several simulators can run side by side without sharing a device
  --host H           server address (default 127.0.0.1)
  --port P           the protocol's port (default: Traccar's, e.g. GT06 5023); with several
                     protocols, per protocol: --port gt06=15023,h02=15013
  --interval S       seconds between two reports of a tracker (default 5)
  --heartbeat S      seconds without a report before a heartbeat (default 60, 0 = none)
  --udp              Teltonika and H02 over UDP (the others stay on TCP)
  --reply-delay MS   milliseconds a tracker takes to answer a command (default 300)
  --duration S       stop after S seconds (default: run until Ctrl-C)
  --every S          seconds between two summary lines (default 10)
  --create           first add the devices through the REST API:
    --url U          the server's web address (default http://<host>:8082)
    --user U         administrator (default admin)
    --password P     its password (default: $RASTRO_ADMIN_PASSWORD)`;

/** A command line that cannot run: the message is printed with the usage. */
export class UsageError extends Error {}

const fail = (message: string): never => {
  throw new UsageError(message);
};

function positive(name: string, text: string | undefined, fallback: number, allowZero = false): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) fail(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  return n;
}

/** Each protocol's port: `--port N` (one protocol), `--port name=N,…`, else Traccar's default. */
function portsOf(protocols: readonly SimProtocol[], flag: string | undefined): Partial<Record<SimProtocol, number>> {
  const given = new Map<string, string>();
  if (flag !== undefined && !flag.includes('=')) {
    if (protocols.length > 1) fail('--port N needs a single --protocol (or give --port name=N,…)');
    given.set(protocols[0]!, flag);
  } else if (flag !== undefined) {
    for (const pair of flag.split(',')) {
      const [name = '', port = ''] = pair.split('=').map((part) => part.trim());
      if (!protocols.includes(name as SimProtocol)) fail(`--port names ${name}, which is not simulated`);
      given.set(name, port);
    }
  }
  const ports: Partial<Record<SimProtocol, number>> = {};
  for (const p of protocols) {
    const text = given.get(p);
    const port = text !== undefined ? Number(text) : PROTOCOLS.find((d) => d.name === p)?.defaultPort;
    if (!port || !Number.isInteger(port) || port < 1 || port > 65535) fail(`--port: no valid port for ${p}`);
    ports[p] = port!;
  }
  return ports;
}

export interface SimulateArgs {
  help: boolean;
  simulator: SimulatorOptions;
  /** Seconds to run, null = until Ctrl-C. */
  durationS: number | null;
  everyS: number;
  /** Where and as whom to add the devices first (`--create`), or null. */
  create: { url: string; user: string; password: string } | null;
}

/** Reads the command line (throws UsageError on a bad one). `env` gives RASTRO_ADMIN_PASSWORD. */
export function parseSimulateArgs(args: string[], env: NodeJS.ProcessEnv = process.env): SimulateArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        protocol: { type: 'string' }, devices: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' },
        interval: { type: 'string' }, heartbeat: { type: 'string' }, udp: { type: 'boolean' }, duration: { type: 'string' },
        every: { type: 'string' }, first: { type: 'string' }, 'reply-delay': { type: 'string' }, create: { type: 'boolean' },
        url: { type: 'string' }, user: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const help = values.help === true;
  if (!values.protocol && !help) fail('--protocol is required');
  const names = (values.protocol ?? 'gt06').split(',').flatMap((p) => (p.trim() === 'all' ? SIM_PROTOCOLS : [p.trim().toLowerCase()]));
  const protocols = [...new Set(names)].map((p) => (isSimProtocol(p) ? p : fail(`unknown protocol "${p}"`)));
  const host = values.host ?? '127.0.0.1';
  let create: SimulateArgs['create'] = null;
  if (values.create) {
    const password = values.password ?? env.RASTRO_ADMIN_PASSWORD;
    if (!password) fail('--create needs the administrator password (--password or RASTRO_ADMIN_PASSWORD)');
    const url = (values.url ?? `http://${host.includes(':') ? `[${host}]` : host}:8082`).replace(/\/+$/, '');
    create = { url, user: values.user ?? 'admin', password: password! };
  }
  return {
    help,
    simulator: {
      protocols, host, ports: portsOf(protocols, values.port), transport: values.udp ? 'udp' : 'tcp',
      devices: Math.floor(positive('devices', values.devices, 10)),
      firstDevice: Math.floor(positive('first', values.first, 0, true)),
      intervalMs: positive('interval', values.interval, 5) * 1000,
      heartbeatMs: positive('heartbeat', values.heartbeat, 60, true) * 1000,
      replyDelayMs: positive('reply-delay', values['reply-delay'], 300, true),
    },
    durationS: values.duration === undefined ? null : positive('duration', values.duration, 0),
    everyS: positive('every', values.every, 10),
    create,
  };
}

/** Runs the simulator as `args` ask (the command line after `npm run simulate --`). */
export async function simulateCli(args: string[]): Promise<void> {
  let parsed: SimulateArgs;
  try {
    parsed = parseSimulateArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${HELP}`);
    process.exit(2);
  }
  if (parsed.help) {
    console.log(HELP);
    return;
  }
  const options = parsed.simulator;
  const { protocols, devices, host, ports } = options;
  if (parsed.create) {
    const list = Array.from({ length: devices }, (_, i) => {
      const { protocol, uniqueId, index } = fleetDevice(protocols, (options.firstDevice ?? 0) + i);
      return { uniqueId, name: `Sim ${protocol.toUpperCase()} ${String(index + 1).padStart(4, '0')}` };
    });
    const result = await createDevices(parsed.create.url, parsed.create, list);
    console.log(`devices: ${result.created} created, ${result.existing} already there (${parsed.create.url})`);
  }

  const sim = new Simulator(options);
  const where = protocols.map((p) => `${p} ${host}:${ports[p]}`).join(', ');
  console.log(`simulating ${devices} trackers (${where}${options.transport === 'udp' ? ', UDP where the protocol has it' : ''}); Ctrl-C stops`);
  sim.start();
  const started = Date.now();
  const line = () => `[${Math.round((Date.now() - started) / 1000)} s] ${statsLine(sim.stats, devices)}`;
  const every = setInterval(() => console.log(line()), parsed.everyS * 1000);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    clearInterval(every);
    sim.stop();
    console.log(`\nsummary: ${line()}`);
    const reasons = errorLines(sim.stats);
    if (reasons.length > 0) console.log(['errors:', ...reasons].join('\n'));
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (parsed.durationS !== null) setTimeout(stop, parsed.durationS * 1000);
}
