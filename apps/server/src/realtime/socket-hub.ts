// The socket hub: every open `/api/socket` of this instance, and the fan-out of live batches
// to them. Messages carry one key each (`{devices}`, `{positions}`, `{events}`, `{logs}`), at most one
// message per key per batch per socket, and only what that user may see (audience.ts).
//
// Fan-out is built for thousands of positions a second: each item is serialised once per
// batch, users who see the same subset of a batch share one message string, administrators
// share one message for the whole batch, and nothing here waits for the database per item.
//
// Audience changes (ctx.changes) read the database; they run one at a time on `serial`, and
// while one is waiting, incoming batches are held back and delivered right after it, so a
// position published after a permission change always reaches the new audience.
//
// Raw device frames (`{logs}`) go only to sockets that sent `{"logs": true}`, and only frames of
// devices their user sees; frames of devices not (yet) identified go to administrators alone.
// While any socket here wants them, this instance's log wish is on (log-wish.ts).
//
// Each socket remembers the credential it was opened with (cookie session, token, password).
// Whatever ends credentials (logout, password change or reset, token revocation) publishes a
// `user` change (auth/credential-changes.ts); on it, every socket of that user whose credential
// no longer holds is closed - on every instance, since the bus carries the change.
import type { Device, Event } from '@rastro/domain/entities';
import type { RawData, WebSocket } from 'ws';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { accountRefusal } from '../auth/authenticate.ts';
import { credentialStillValid, type Credential } from '../auth/credential.ts';
import { Audience, type Gains } from './audience.ts';
import type { Change } from './changes.ts';
import type { LiveBatch, RawFrame, UserEvent } from './live.ts';
import { logWish, type LogWish } from './log-wish.ts';
import { devicesByIds, latestPositions } from './snapshot-repo.ts';

export interface HubOptions {
  /** Milliseconds between `{}` keepalives (Traccar: 55 s). */
  keepaliveMs: number;
}

interface Client {
  socket: WebSocket;
  userId: number;
  /** What the socket was opened with; it closes when that ends. */
  credential: Credential | null;
  /** Messages that arrived while the connect snapshot was being read; null once live. */
  pending: string[] | null;
  /** Asked for raw device traffic with `{"logs":true}`. */
  logs: boolean;
}

/** A client further behind than this is dropped; it reconnects and gets a fresh snapshot. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Batches kept while an audience update waits for the database (a few seconds of traffic). */
const MAX_BACKLOG = 1000;
const OPEN = 1;

export class SocketHub {
  private readonly clients = new Map<number, Set<Client>>();
  /** Sockets that asked for raw device logs. */
  private readonly logClients = new Set<Client>();
  private readonly logWish: LogWish;
  private readonly audience: Audience;
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: Array<() => void>;
  private chain: Promise<void> = Promise.resolve();
  private holds = 0;
  private backlog: LiveBatch[] = [];
  private recomputeAllQueued = false;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    options: HubOptions,
  ) {
    this.audience = new Audience(ctx.visibility);
    this.logWish = logWish(ctx.live);
    this.unsubscribe = [ctx.live.subscribe((batch) => this.onBatch(batch)), ctx.changes.on((change) => this.onChange(change))];
    this.timer = setInterval(() => this.keepalive(), options.keepaliveMs);
    this.timer.unref();
  }

  /** Number of open sockets (all users). */
  get socketCount(): number {
    let n = 0;
    for (const set of this.clients.values()) n += set.size;
    return n;
  }

  /** Users whose sockets asked for raw device logs. */
  logSubscribers(): number[] {
    return [...new Set([...this.logClients].map((c) => c.userId))];
  }

  /** A socket of an authenticated user opened: follow the user, then send the latest positions. */
  async attach(socket: WebSocket, user: UserRow, credential: Credential | null = null): Promise<void> {
    if (this.closed) {
      socket.close(1001, 'Server shutting down');
      return;
    }
    const client: Client = { socket, userId: user.id, credential, pending: [], logs: false };
    let set = this.clients.get(user.id);
    if (!set) this.clients.set(user.id, (set = new Set()));
    set.add(client);
    // Listeners first and synchronously: nothing the client sends may be missed.
    socket.on('message', (data, isBinary) => this.onClientMessage(client, data, isBinary));
    socket.on('close', () => this.detach(client));

    await this.serial(async () => {
      await this.audience.track(user);
      if (!this.clients.has(user.id)) this.audience.untrack(user.id);
    }, false);
    if (socket.readyState !== OPEN) return;
    const devices = this.audience.devicesOf(user.id);
    if (!devices) {
      socket.close(1011, 'Server error');
      return;
    }
    try {
      // Positions stored before this read are in it; later ones were queued in `pending`.
      const positions = await latestPositions(this.ctx.storage.db, devices);
      const queued = client.pending ?? [];
      client.pending = null;
      this.write(client, JSON.stringify({ positions }));
      for (const text of queued) this.write(client, text);
    } catch (error) {
      this.ctx.log.error({ err: error }, 'socket: could not read the latest positions');
      socket.close(1011, 'Server error');
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const off of this.unsubscribe) off();
    for (const set of this.clients.values()) for (const c of set) c.socket.close(1001, 'Server shutting down');
    this.clients.clear();
    this.setLogs(null, false);
    await this.chain;
  }

  private detach(client: Client): void {
    this.setLogs(client, false);
    const set = this.clients.get(client.userId);
    if (!set?.delete(client)) return;
    if (set.size === 0) {
      this.clients.delete(client.userId);
      this.audience.untrack(client.userId);
    }
  }

  /** Client messages are ignored except `{"logs": true|false}` (web clients also send `{}`). */
  private onClientMessage(client: Client, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Buffer.from(new Uint8Array(data)).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    if (value && typeof value === 'object' && typeof (value as { logs?: unknown }).logs === 'boolean') {
      // A socket already closed (or dropped as a credential ended) cannot ask any more.
      if (this.clients.get(client.userId)?.has(client)) this.setLogs(client, (value as { logs: boolean }).logs);
    }
  }

  /** Follows one socket's log switch (`client` null: every socket, at close) and the instance's wish. */
  private setLogs(client: Client | null, on: boolean): void {
    if (client) {
      client.logs = on;
      if (on) this.logClients.add(client);
      else this.logClients.delete(client);
    } else {
      for (const c of this.logClients) c.logs = false;
      this.logClients.clear();
    }
    this.logWish.setLocal(this.logClients.size > 0);
  }

  private keepalive(): void {
    for (const set of this.clients.values()) for (const c of set) if (!c.pending) this.write(c, '{}');
  }

  // ---- live batches ----

  private onBatch(batch: LiveBatch): void {
    if (this.clients.size === 0) return;
    if (this.holds > 0) {
      if (this.backlog.length >= MAX_BACKLOG) {
        this.backlog.shift();
        this.ctx.log.warn('socket: audience update is slow, dropping the oldest held live batch');
      }
      this.backlog.push(batch);
      return;
    }
    this.fanout(batch);
  }

  private drain(): void {
    while (this.holds === 0 && this.backlog.length > 0) this.fanout(this.backlog.shift()!);
  }

  private fanout(batch: LiveBatch): void {
    if (batch.devices && batch.devices.length > 0) this.fanoutByDevice('devices', batch.devices, (d: Device) => d.id);
    if (batch.positions && batch.positions.length > 0) this.fanoutByDevice('positions', batch.positions, (p) => p.deviceId);
    if (batch.events && batch.events.length > 0) this.fanoutEvents(batch.events);
    if (batch.logs && batch.logs.length > 0 && this.logClients.size > 0) this.fanoutLogs(batch.logs);
  }

  /** Each log socket gets the frames of the devices its user sees (administrators: all, unknown devices too). */
  private fanoutLogs(frames: readonly RawFrame[]): void {
    let all: string | undefined;
    const perUser = new Map<number, string | null>();
    for (const c of this.logClients) {
      let text = perUser.get(c.userId);
      if (text === undefined) {
        const seen = this.audience.devicesOf(c.userId);
        if (seen === 'all') text = all ??= JSON.stringify({ logs: frames });
        else {
          const mine = seen ? frames.filter((f) => f.deviceId !== null && seen.has(f.deviceId)) : [];
          text = mine.length > 0 ? JSON.stringify({ logs: mine }) : null;
        }
        perUser.set(c.userId, text);
      }
      if (text !== null) this.write(c, text);
    }
  }

  private fanoutByDevice<T>(key: 'devices' | 'positions', items: readonly T[], deviceOf: (item: T) => number): void {
    const fragments: Array<string | undefined> = new Array(items.length);
    const fragment = (i: number): string => (fragments[i] ??= JSON.stringify(items[i]));
    const build = (indices: readonly number[] | null): string => {
      const parts = indices ? indices.map(fragment) : items.map((_, i) => fragment(i));
      return `{"${key}":[${parts.join(',')}]}`;
    };
    // One message text per distinct subset; '*' is the whole batch.
    const texts = new Map<string, string>();

    for (const userId of this.audience.admins) {
      const set = this.clients.get(userId);
      if (!set) continue;
      let text = texts.get('*');
      if (text === undefined) texts.set('*', (text = build(null)));
      for (const c of set) this.write(c, text);
    }

    const perUser = new Map<number, number[]>();
    for (let i = 0; i < items.length; i++) {
      const viewers = this.audience.viewers(deviceOf(items[i]!));
      if (!viewers) continue;
      for (const userId of viewers) {
        const list = perUser.get(userId);
        if (list) list.push(i);
        else perUser.set(userId, [i]);
      }
    }
    for (const [userId, indices] of perUser) {
      const set = this.clients.get(userId);
      if (!set) continue;
      const signature = indices.length === items.length ? '*' : indices.join(',');
      let text = texts.get(signature);
      if (text === undefined) texts.set(signature, (text = build(indices)));
      for (const c of set) this.write(c, text);
    }
  }

  private fanoutEvents(events: readonly UserEvent[]): void {
    const perUser = new Map<number, Event[]>();
    for (const { userId, event } of events) {
      if (!this.clients.has(userId)) continue;
      const list = perUser.get(userId);
      if (list) list.push(event);
      else perUser.set(userId, [event]);
    }
    for (const [userId, list] of perUser) {
      const text = JSON.stringify({ events: list });
      for (const c of this.clients.get(userId) ?? []) this.write(c, text);
    }
  }

  private write(client: Client, text: string): void {
    if (client.pending) {
      client.pending.push(text);
      return;
    }
    const socket = client.socket;
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ctx.log.warn({ userId: client.userId }, 'socket: client too slow, closing it');
      socket.terminate();
      return;
    }
    socket.send(text);
  }

  // ---- audience changes ----

  private onChange(change: Change): void {
    if (this.clients.size === 0) return; // nobody connected: nothing is tracked
    switch (change.kind) {
      case 'permissions':
      case 'group':
        this.queueRecomputeAll();
        break;
      case 'device':
        void this.serial(() => this.deviceChanged(change.id), true);
        break;
      case 'deviceRemoved':
        void this.serial(async () => this.audience.removeDevice(change.id), true);
        break;
      case 'user':
        if (this.audience.isTracked(change.id) || this.clients.has(change.id)) {
          void this.serial(() => this.userChanged(change.id), true);
        }
        break;
      case 'userRemoved':
        this.closeUser(change.id, 'User deleted');
        break;
    }
  }

  /** Several link changes in a row cost one recomputation, not one each. */
  private queueRecomputeAll(): void {
    if (this.recomputeAllQueued) return;
    this.recomputeAllQueued = true;
    void this.serial(async () => {
      this.recomputeAllQueued = false;
      const gains = await this.audience.recomputeAll((id) => this.ctx.users.findById(id));
      await this.sendGains(gains, true);
    }, true);
  }

  private async deviceChanged(deviceId: number): Promise<void> {
    const gains = await this.audience.recomputeDevice(deviceId);
    // Everyone who sees the device gets the new row (an edit shows at once in other sessions,
    // a newly linked user learns the device), then newcomers get its latest position.
    const devices = await devicesByIds(this.ctx.storage.db, [deviceId]);
    if (devices.length > 0) this.fanout({ devices });
    await this.sendGains(gains, false);
  }

  private async userChanged(userId: number): Promise<void> {
    const user = await this.ctx.users.findById(userId);
    if (!user) return this.closeUser(userId, 'User deleted');
    const refusal = accountRefusal(user);
    if (refusal) return this.closeUser(userId, 'Account disabled');
    await this.closeEndedCredentials(user);
    const gained = await this.audience.recompute(user);
    if (gained.length > 0) await this.sendGains(new Map([[userId, gained]]), true);
  }

  /** Tells users about devices they just started to see. */
  private async sendGains(gains: Gains, withDevices: boolean): Promise<void> {
    const db = this.ctx.storage.db;
    for (const [userId, deviceIds] of gains) {
      if (!this.clients.has(userId)) continue;
      const devices = withDevices ? await devicesByIds(db, deviceIds) : [];
      const positions = await latestPositions(db, deviceIds);
      for (const c of this.clients.get(userId) ?? []) {
        if (devices.length > 0) this.write(c, JSON.stringify({ devices }));
        if (positions.length > 0) this.write(c, JSON.stringify({ positions }));
      }
    }
  }

  /** Closes the user's sockets whose session, token or password no longer holds. */
  private async closeEndedCredentials(user: UserRow): Promise<void> {
    // Several sockets of one browser share a session: check each credential once.
    const checked = new Map<string, Promise<boolean>>();
    for (const client of [...(this.clients.get(user.id) ?? [])]) {
      const credential = client.credential;
      if (!credential) continue;
      const key = credential.kind === 'session' ? `s:${credential.sessionId}` : credential.kind === 'token' ? `t:${credential.token}` : 'p';
      let valid = checked.get(key);
      if (!valid) checked.set(key, (valid = credentialStillValid(this.ctx, credential, user)));
      if (await valid) continue;
      this.detach(client);
      client.socket.close(1008, 'Credentials ended');
    }
  }

  private closeUser(userId: number, reason: string): void {
    const set = this.clients.get(userId);
    for (const c of set ?? []) this.setLogs(c, false);
    this.clients.delete(userId);
    this.audience.untrack(userId);
    for (const c of set ?? []) c.socket.close(1008, reason);
  }

  /** Runs audience work one task at a time; `hold` keeps live batches back until it is done. */
  private serial(task: () => Promise<void>, hold: boolean): Promise<void> {
    if (hold) this.holds++;
    const run = this.chain
      .then(task)
      .catch((error: unknown) => this.ctx.log.error({ err: error }, 'socket: audience update failed'))
      .finally(() => {
        if (hold && --this.holds === 0) this.drain();
      });
    this.chain = run;
    return run;
  }
}
