// Background parts of the server besides HTTP: device ingest ports, the status sweeper,
// the realtime bus, the demo fleet. Each registers its own shutdown in `ctx.onClose`.
import type { AppContext } from './context.ts';

export interface Services {
  osmandPort: number;
}

export async function startServices(_ctx: AppContext, _options: { httpPort: number }): Promise<Services> {
  return { osmandPort: 0 };
}
