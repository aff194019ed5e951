// The realtime bus carries live batches (ctx.live) and object changes (ctx.changes) between
// server instances that share one database, so a socket on any instance hears about a device
// reporting to any other, and audiences follow permission changes made anywhere.
//
// One instance (no REDIS_URL): nothing to carry, everything is already local. With REDIS_URL:
// Redis pub/sub on channel `rastro`, payload `<instanceId>:<json>` as Traccar's Redis
// broadcast does; an instance ignores its own messages (it delivered them locally already).
// The bus also carries each instance's wish for raw device logs (log-wish.ts), so a socket on
// one instance asking for logs makes the listeners of every instance publish their frames.
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import type { AppContext } from '../context.ts';
import { ENTITY_CHANGE_KINDS, type Change } from './changes.ts';
import type { LiveBatch } from './live.ts';
import { LOG_WISH_REFRESH_MS, logWish } from './log-wish.ts';

export const BUS_CHANNEL = 'rastro';

export interface Bus {
  readonly kind: 'local' | 'redis';
  /** This instance's id on the bus (prefix of every message it sends). */
  readonly instanceId: string;
  close(): Promise<void>;
}

/** `logWish`: the sender's sockets want raw logs (true) or not (false); `ask`: a new instance asks who does. */
type Envelope = { live: LiveBatch } | { change: Change } | { logWish: boolean | 'ask' };

const CHANGE_KINDS = new Set(['device', 'deviceRemoved', 'group', 'user', 'userRemoved', 'permissions', 'commandQueued', 'geofence', 'server', ...ENTITY_CHANGE_KINDS]);

export async function startBus(ctx: AppContext): Promise<Bus> {
  const instanceId = crypto.randomUUID();
  if (!ctx.config.redisUrl) return { kind: 'local', instanceId, close: async () => {} };
  return startRedisBus(ctx, ctx.config.redisUrl, instanceId);
}

async function startRedisBus(ctx: AppContext, url: string, instanceId: string): Promise<Bus> {
  // Publishing and subscribing need separate connections (a subscribed one only listens).
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = new Redis(url, { lazyConnect: true });
  const complain = throttled((message: string, error: unknown) => ctx.log.warn({ err: error }, message));
  // "Connection is closed" says little; the socket error before it says why (refused, DNS, auth).
  let lastError: Error | null = null;
  pub.on('error', (error: Error) => {
    lastError = error;
    complain('realtime bus: Redis connection problem (publisher)', error);
  });
  sub.on('error', (error: Error) => {
    lastError = error;
    complain('realtime bus: Redis connection problem (subscriber)', error);
  });
  try {
    await Promise.all([pub.connect(), sub.connect()]);
    await sub.subscribe(BUS_CHANNEL);
  } catch (error) {
    pub.disconnect();
    sub.disconnect();
    const reason = (lastError as Error | null)?.message ?? (error as Error).message;
    throw new Error(`REDIS_URL: cannot use Redis at ${redacted(url)} (${reason})`, { cause: error });
  }

  const prefix = `${instanceId}:`;
  const wish = logWish(ctx.live);
  sub.on('message', (channel: string, message: string) => {
    if (channel !== BUS_CHANNEL || message.startsWith(prefix)) return;
    const envelope = parseEnvelope(message);
    if (!envelope) {
      complain('realtime bus: ignored a malformed message', new Error(message.slice(0, 200)));
      return;
    }
    try {
      if ('live' in envelope) ctx.live.deliver(envelope.live);
      else if ('change' in envelope) ctx.changes.deliver(envelope.change);
      else if (envelope.logWish === 'ask') {
        if (wish.localWanted) send({ logWish: true });
      } else wish.setRemote(message.slice(0, message.indexOf(':')), envelope.logWish);
    } catch (error) {
      ctx.log.error({ err: error }, 'realtime bus: a local subscriber failed');
    }
  });

  const send = (envelope: Envelope): void => {
    pub.publish(BUS_CHANNEL, prefix + JSON.stringify(envelope)).catch((error: unknown) => {
      complain('realtime bus: could not publish to Redis', error);
    });
  };
  ctx.live.relay = (batch) => send({ live: batch });
  ctx.changes.relay = (change) => send({ change });
  wish.onLocalChange = (wanted) => send({ logWish: wanted });
  // Renew this instance's wish while it holds (others forget silent ones) and drop lapsed ones.
  const refresh = setInterval(() => {
    if (wish.localWanted) send({ logWish: true });
    wish.expire();
  }, LOG_WISH_REFRESH_MS);
  refresh.unref();
  // Instances that already want logs answer, so this one's listeners publish at once.
  send({ logWish: 'ask' });
  ctx.log.info({ channel: BUS_CHANNEL, instanceId }, 'realtime bus: Redis pub/sub');

  return {
    kind: 'redis',
    instanceId,
    async close() {
      clearInterval(refresh);
      wish.onLocalChange = null;
      if (wish.localWanted) await pub.publish(BUS_CHANNEL, prefix + JSON.stringify({ logWish: false })).catch(() => undefined);
      ctx.live.relay = null;
      ctx.changes.relay = null;
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}

/** `<instanceId>:<json>` -> the envelope, or null when it is not one of ours. */
export function parseEnvelope(message: string): Envelope | null {
  const colon = message.indexOf(':');
  if (colon <= 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(message.slice(colon + 1));
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const v = value as { live?: unknown; change?: unknown; logWish?: unknown };
  if (v.live && typeof v.live === 'object' && !Array.isArray(v.live)) return { live: v.live as LiveBatch };
  if (typeof v.logWish === 'boolean' || v.logWish === 'ask') return { logWish: v.logWish };
  const change = v.change as { kind?: unknown; id?: unknown } | undefined;
  if (change && typeof change.kind === 'string' && CHANGE_KINDS.has(change.kind)) {
    if (change.kind !== 'permissions' && typeof change.id !== 'number') return null;
    return { change: change as Change };
  }
  return null;
}

/** A password in the URL never reaches the log. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'REDIS_URL';
  }
}

/** At most one complaint every 30 s: a Redis outage must not flood the log. */
function throttled(log: (message: string, error: unknown) => void): (message: string, error: unknown) => void {
  let last = 0;
  return (message, error) => {
    const now = Date.now();
    if (now - last < 30_000) return;
    last = now;
    log(message, error);
  };
}
