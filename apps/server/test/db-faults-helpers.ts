// Helpers of the connection-fault suites: ending the server's PostgreSQL connections the way an
// administrator or a database restart does, and a TCP relay in front of PostgreSQL (or Redis)
// that can be switched off and on to stand for a service that goes away and comes back.
import net from 'node:net';
import pg from 'pg';
import type { TestServer } from './harness.ts';

/** The `application_name` of a test server's connections (storage/db.ts names them after the schema). */
export const applicationName = (server: TestServer): string => `rastro/${server.pgSchema}`;

/**
 * `pg_terminate_backend` on every connection of that server (and no other: neighbouring suites
 * use the same database); resolves with how many were ended, once they are gone. With `busy`,
 * waits (up to 3 s) for a moment when one of them is running a statement or a transaction, so
 * the cut lands mid-write.
 */
export async function terminateConnections(url: string, name: string, options: { busy?: boolean } = {}): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const busy = options.busy
      ? `and exists (select 1 from pg_stat_activity b where b.datname = current_database() and b.application_name = $1
           and b.state in ('active', 'idle in transaction'))`
      : '';
    let rows: Array<{ pid: number; ended: boolean }> = [];
    const until = Date.now() + 3000;
    do {
      ({ rows } = await client.query<{ pid: number; ended: boolean }>(
        `select pid, pg_terminate_backend(pid) as ended from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and application_name = $1 ${busy}`,
        [name],
      ));
    } while (options.busy && rows.length === 0 && Date.now() < until);
    const pids = rows.map((r) => r.pid);
    const deadline = Date.now() + 5000;
    while (pids.length > 0 && Date.now() < deadline) {
      const left = await client.query<{ n: string }>('select count(*) as n from pg_stat_activity where pid = any($1)', [pids]);
      if (Number(left.rows[0]!.n) === 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    return rows.filter((r) => r.ended).length;
  } finally {
    await client.end();
  }
}

/** How many connections that server holds open right now. */
export async function connectionCount(url: string, name: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where datname = current_database() and application_name = $1',
      [name],
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/**
 * A TCP relay to a service (PostgreSQL, Redis) on a port of its own. `down()` stops listening
 * (new connections are refused) and resets every open connection: the server sees the service
 * vanish. `up()` listens on the same port again: the service is back.
 */
export class TcpRelay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** A relay in front of the service at `url`; `urlThrough` gives the URL to hand the server. */
  static async start(url: string, defaultPort: number): Promise<TcpRelay> {
    const parsed = new URL(url);
    const relay = new TcpRelay({ host: parsed.hostname, port: Number(parsed.port || defaultPort) });
    await relay.up();
    return relay;
  }

  urlThrough(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  async up(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((inbound) => {
      const outbound = net.connect(this.target);
      for (const s of [inbound, outbound]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      inbound.pipe(outbound);
      outbound.pipe(inbound);
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port: this.port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.resetAndDestroy();
    await closed;
  }

  close(): Promise<void> {
    return this.down();
  }
}
