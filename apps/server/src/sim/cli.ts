// The command line of the device simulator (`npm run simulate -- …`, scripts/simulate.ts):
// reads the flags, optionally adds the devices through the REST API, runs the fleet and prints
// a summary every few seconds and when it stops.
import { parseArgs } from 'node:util';
import { PROTOCOLS } from '../ingest/protocols.ts';
import { createDevices } from './create-devices.ts';
import type { SimProtocol } from './encoders/encoder.ts';
import { SIM_PROTOCOLS, isSimProtocol } from './encoders/encoders.ts';
import { Simulator, fleetDevice } from './simulator.ts';
import { errorLines, statsLine } from './tracker-stats.ts';

const HELP = `Usage: npm run simulate -- --protocol <${SIM_PROTOCOLS.join('|')}|all>[,…] [options]
  --devices N        simulated trackers (default 10), shared out among the protocols
  --first N          number of the first tracker (default 0): ids follow from it, so that
                     several simulators can run side by side without sharing a device
  --host H           server address (default 127.0.0.1)
  --port P           the protocol's port (default: Traccar's, e.g. GT06 5023; one protocol only)
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

function fail(message: string): never {
  console.error(`${message}\n\n${HELP}`);
  process.exit(2);
}

function positive(name: string, text: string | undefined, fallback: number, allowZero = false): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) fail(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  return n;
}

/** Runs the simulator as `args` ask (the command line after `npm run simulate --`). */
export async function simulateCli(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      protocol: { type: 'string' }, devices: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' },
      interval: { type: 'string' }, heartbeat: { type: 'string' }, udp: { type: 'boolean' }, duration: { type: 'string' },
      every: { type: 'string' }, first: { type: 'string' }, 'reply-delay': { type: 'string' }, create: { type: 'boolean' }, url: { type: 'string' }, user: { type: 'string' },
      password: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (!values.protocol) fail('--protocol is required');
  const names = values.protocol.split(',').flatMap((p) => (p.trim() === 'all' ? SIM_PROTOCOLS : [p.trim().toLowerCase()]));
  const protocols = [...new Set(names)].map((p) => (isSimProtocol(p) ? p : fail(`unknown protocol "${p}"`)));
  const devices = Math.floor(positive('devices', values.devices, 10));
  const firstDevice = Math.floor(positive('first', values.first, 0, true));
  const host = values.host ?? '127.0.0.1';
  if (values.port !== undefined && protocols.length > 1) fail('--port needs a single --protocol');
  const ports: Partial<Record<SimProtocol, number>> = {};
  for (const p of protocols) {
    const port = values.port !== undefined ? positive('port', values.port, 0) : PROTOCOLS.find((d) => d.name === p)?.defaultPort;
    if (!port) fail(`no default port known for ${p}: pass --port`);
    ports[p] = port;
  }

  if (values.create) {
    const password = values.password ?? process.env.RASTRO_ADMIN_PASSWORD;
    if (!password) fail('--create needs the administrator password (--password or RASTRO_ADMIN_PASSWORD)');
    const url = (values.url ?? `http://${host.includes(':') ? `[${host}]` : host}:8082`).replace(/\/+$/, '');
    const list = Array.from({ length: devices }, (_, i) => {
      const { protocol, uniqueId, index } = fleetDevice(protocols, firstDevice + i);
      return { uniqueId, name: `Sim ${protocol.toUpperCase()} ${String(index + 1).padStart(4, '0')}` };
    });
    const result = await createDevices(url, { user: values.user ?? 'admin', password }, list);
    console.log(`devices: ${result.created} created, ${result.existing} already there (${url})`);
  }

  const sim = new Simulator({
    protocols, devices, firstDevice, host, ports, transport: values.udp ? 'udp' : 'tcp',
    intervalMs: positive('interval', values.interval, 5) * 1000,
    heartbeatMs: positive('heartbeat', values.heartbeat, 60, true) * 1000,
    replyDelayMs: positive('reply-delay', values['reply-delay'], 300, true),
  });
  const where = protocols.map((p) => `${p} ${host}:${ports[p]}`).join(', ');
  console.log(`simulating ${devices} trackers (${where}${values.udp ? ', UDP where the protocol has it' : ''}); Ctrl-C stops`);
  sim.start();
  const started = Date.now();
  const line = () => `[${Math.round((Date.now() - started) / 1000)} s] ${statsLine(sim.stats, devices)}`;
  const every = setInterval(() => console.log(line()), positive('every', values.every, 10) * 1000);

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
  if (values.duration !== undefined) setTimeout(stop, positive('duration', values.duration, 0) * 1000);
}
