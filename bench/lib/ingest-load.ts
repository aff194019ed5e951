// Load generator of the ingest benchmark, run as a child process so it does not share the
// server's event loop. One keep-alive TCP connection per device (as a real fleet), raw
// HTTP/1.1 written by hand (node:http's client would cost more CPU than the server), and a
// WebSocket on /api/socket as admin measuring request sent -> position pushed.
// Three kinds of runs, in this order after the warm-up: light load (a few devices at 1/s each:
// how long one acknowledgement takes when nothing else happens), closed-loop cases (N
// connections each sending its next report as soon as the previous one is answered, as a
// tracker emptying its buffer: what one connection's round trip allows), then the open-loop
// steps at increasing rates.
import net from 'node:net';
import WebSocket from 'ws';
import { nowMs, summary } from './stats.ts';

export interface LoadInit {
  type: 'init';
  osmandPort: number;
  httpPort: number;
  cookie: string | null;
  uniqueIds: string[];
  rates: number[];
  stepSeconds: number;
  graceSeconds: number;
  /** A first step at 2,000/s that is not reported (JIT, connections, first fixes). */
  warmupSeconds: number;
  /** Light load: this many devices sending once a second each, for `lightSeconds` (0: skipped). */
  lightDevices: number;
  lightSeconds: number;
  /** Closed-loop cases: connections sending back-to-back, each case for `closedSeconds`. */
  closed: number[];
  closedSeconds: number;
}

/** One light-load or closed-loop case, measured by the acknowledgements the devices got. */
export interface CaseReport {
  type: 'case';
  name: string;
  connections: number;
  seconds: number;
  ok: number;
  failed: number;
  /** Request written -> its answer read, ms. */
  ack: ReturnType<typeof summary>;
  cpuPercent: number;
}

export interface StepReport {
  type: 'step';
  step: number;
  rate: number;
  sent: number;
  ok: number;
  failed: number;
  backlogged: number;
  response: ReturnType<typeof summary>;
  socket: ReturnType<typeof summary> | null;
  cpuPercent: number;
}

interface Tally {
  ok: number;
  failed: number;
  response: number[];
}

interface Conn {
  socket: net.Socket;
  uid: string;
  busy: boolean;
  sentAt: number;
  step: number;
  /** Where the answer to the request in flight is counted. */
  tally: Tally;
  /** Called once that answer is read (closed loop: sends the next report). */
  answered: (() => void) | null;
  buf: string;
  lat: number;
  lon: number;
}

const send = (m: unknown) => process.send!(m);

async function open(port: number, uid: string, i: number): Promise<Conn> {
  const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.setEncoding('latin1');
  return {
    socket, uid, busy: false, sentAt: 0, step: 0, tally: { ok: 0, failed: 0, response: [] }, answered: null, buf: '',
    lat: -23.5 + (i % 100) * 0.01, lon: -46.6 + Math.floor(i / 100) * 0.01,
  };
}

async function run(init: LoadInit): Promise<void> {
  const perStep = init.rates.map(() => ({ sent: 0, ok: 0, failed: 0, backlogged: 0, response: [] as number[], socket: [] as number[] }));

  const warm = { sent: 0, ok: 0, failed: 0, backlogged: 0, response: [] as number[], socket: [] as number[] };
  let socketOk = false;
  if (init.cookie) {
    const ws = new WebSocket(`ws://127.0.0.1:${init.httpPort}/api/socket`, { headers: { cookie: init.cookie } });
    socketOk = await new Promise<boolean>((resolve) => {
      ws.once('open', () => resolve(true));
      ws.once('error', () => resolve(false));
      ws.once('unexpected-response', () => resolve(false));
    });
    ws.on('error', () => undefined);
    ws.on('message', (data) => {
      const t = nowMs();
      const msg = JSON.parse(data.toString()) as { positions?: Array<{ attributes: { sent?: number; step?: number } }> };
      if (!msg.positions) return;
      for (const p of msg.positions) {
        const { sent, step } = p.attributes;
        if (typeof sent === 'number' && typeof step === 'number' && perStep[step]) perStep[step].socket.push(t - sent);
      }
    });
  }
  send({ type: 'socket', ok: socketOk });

  const conns: Conn[] = [];
  for (let i = 0; i < init.uniqueIds.length; i += 200) {
    conns.push(...(await Promise.all(init.uniqueIds.slice(i, i + 200).map((uid, k) => open(init.osmandPort, uid, i + k)))));
  }
  for (const c of conns) {
    c.socket.on('data', (chunk: string) => {
      c.buf += chunk;
      for (;;) {
        const end = c.buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const m = /content-length: *(\d+)/i.exec(c.buf.slice(0, end));
        const total = end + 4 + (m ? Number(m[1]) : 0);
        if (c.buf.length < total) return;
        const status = c.buf.slice(9, 12);
        c.buf = c.buf.slice(total);
        if (status === '200') {
          c.tally.ok++;
          c.tally.response.push(nowMs() - c.sentAt);
        } else c.tally.failed++;
        c.busy = false;
        c.answered?.();
      }
    });
    c.socket.on('error', () => undefined);
  }

  /** Writes the connection's next report; `step` goes into it for the socket delay (-1: not counted). */
  function post(c: Conn, step: number, tally: Tally): void {
    c.busy = true;
    c.step = step;
    c.tally = tally;
    c.lat += 0.0001;
    c.sentAt = nowMs();
    c.socket.write(
      `GET /?id=${c.uid}&lat=${c.lat.toFixed(5)}&lon=${c.lon.toFixed(5)}&speed=12.5&timestamp=${Date.now()}` +
        `&step=${step}&sent=${c.sentAt.toFixed(3)} HTTP/1.1\r\nHost: bench\r\n\r\n`,
    );
  }

  let cursor = 0;
  function fire(step: number): boolean {
    for (let scanned = 0; scanned < conns.length; scanned++) {
      const c = conns[cursor]!;
      cursor = (cursor + 1) % conns.length;
      if (c.busy) continue;
      post(c, step, perStep[step] ?? warm);
      return true;
    }
    return false;
  }

  /** Waits until no connection has a request in flight (the previous run's answers are in), 30 s at most. */
  async function quiet(): Promise<void> {
    const deadline = nowMs() + 30_000;
    while (conns.some((c) => c.busy) && nowMs() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  /** Runs `body` as one reported case: acknowledgements counted in `tally`, CPU over its span. */
  async function measureCase(name: string, connections: number, seconds: number, body: (tally: Tally) => Promise<void>): Promise<void> {
    await quiet();
    const tally: Tally = { ok: 0, failed: 0, response: [] };
    send({ type: 'case-start', name });
    const cpu0 = process.cpuUsage();
    const t0 = nowMs();
    await body(tally);
    await quiet();
    const cpu = process.cpuUsage(cpu0);
    const report: CaseReport = {
      type: 'case', name, connections, seconds, ok: tally.ok, failed: tally.failed, ack: summary(tally.response),
      cpuPercent: ((cpu.user + cpu.system) / 1000 / (nowMs() - t0)) * 100,
    };
    send(report);
  }

  /** `count` connections, each sending its next report as soon as the previous one is answered. */
  function closedLoop(count: number, seconds: number, tally: Tally): Promise<void> {
    const end = nowMs() + seconds * 1000;
    const used = conns.slice(0, count);
    return new Promise<void>((resolve) => {
      let running = used.length;
      for (const c of used) {
        c.answered = () => {
          if (nowMs() < end) return post(c, -1, tally);
          c.answered = null;
          if (--running === 0) resolve();
        };
        post(c, -1, tally);
      }
    });
  }

  /** `count` devices sending once a second each, spread over the second. */
  async function lightLoad(count: number, seconds: number, tally: Tally): Promise<void> {
    const used = conns.slice(0, count);
    for (let s = 0; s < seconds; s++) {
      for (const c of used) {
        if (!c.busy) post(c, -1, tally);
        await new Promise((r) => setTimeout(r, 1000 / used.length));
      }
    }
  }

  /** Sends at `rate` for `seconds`, open loop: a send due while every connection waits is counted as backlog. */
  async function drive(step: number, rate: number, seconds: number, stats: { sent: number; backlogged: number }): Promise<void> {
    const t0 = nowMs();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsed = nowMs() - t0;
        const due = Math.floor((rate * Math.min(elapsed, seconds * 1000)) / 1000);
        while (stats.sent + stats.backlogged < due) {
          if (fire(step)) stats.sent++;
          else {
            // Every connection is waiting for an answer: the server is not keeping up.
            stats.backlogged = due - stats.sent;
            break;
          }
        }
        if (elapsed >= seconds * 1000) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
  }

  if (init.warmupSeconds > 0) {
    // Step -1: its positions carry step=-1, which no report counts.
    await drive(-1, 2000, init.warmupSeconds, { sent: 0, backlogged: 0 });
    await new Promise((r) => setTimeout(r, init.graceSeconds * 1000));
  }

  if (init.lightDevices > 0 && init.lightSeconds > 0) {
    const n = Math.min(init.lightDevices, conns.length);
    await measureCase(`light: ${n} × 1/s`, n, init.lightSeconds, (tally) => lightLoad(n, init.lightSeconds, tally));
  }
  for (const count of init.closed) {
    const n = Math.min(count, conns.length);
    const name = `back-to-back, ${n} connection${n === 1 ? '' : 's'}`;
    await measureCase(name, n, init.closedSeconds, (tally) => closedLoop(n, init.closedSeconds, tally));
  }
  await quiet();

  for (let step = 0; step < init.rates.length; step++) {
    const rate = init.rates[step]!;
    const stats = perStep[step]!;
    const cpu0 = process.cpuUsage();
    const t0 = nowMs();
    send({ type: 'step-start', step, rate });
    await drive(step, rate, init.stepSeconds, stats);
    await new Promise((r) => setTimeout(r, init.graceSeconds * 1000));
    const cpu = process.cpuUsage(cpu0);
    const wall = nowMs() - t0;
    const report: StepReport = {
      type: 'step',
      step,
      rate,
      sent: stats.sent,
      ok: stats.ok,
      failed: stats.failed,
      backlogged: stats.backlogged,
      response: summary(stats.response),
      socket: socketOk ? summary(stats.socket) : null,
      cpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100,
    };
    send(report);
    // Free memory of the finished step.
    stats.response = [];
    stats.socket = [];
  }
  for (const c of conns) c.socket.destroy();
  send({ type: 'done' });
  process.disconnect();
  setTimeout(() => process.exit(0), 200).unref();
}

process.on('message', (m: LoadInit) => {
  if (m.type === 'init') void run(m).catch((error: unknown) => {
    console.error('load generator failed:', error);
    process.exit(1);
  });
});
