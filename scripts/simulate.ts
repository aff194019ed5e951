// `npm run simulate -- --protocol gt06 --devices 100 [--host 127.0.0.1 --port 5023 --interval 5 --create]`
// Simulated trackers driving the demo's São Paulo routes, speaking GT06, Teltonika, H02 or
// Suntech over real TCP (UDP with --udp for Teltonika and H02) to a Rastro (or Traccar) server.
// `--help` lists the options; the code is in apps/server/src/sim/ (cli.ts).
import { simulateCli } from '../apps/server/src/sim/cli.ts';

simulateCli(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
