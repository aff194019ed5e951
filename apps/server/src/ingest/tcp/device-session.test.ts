// A device session against a fake hub whose commits the test settles one by one: acks leave in
// frame order, the positions in flight are counted, and the ack queue of a connection that is
// never idle (a frame always waiting for its commit) does not grow with every frame.
import { describe, expect, it } from 'vitest';
import type { DeviceEntry } from '../../processing/device-cache.ts';
import type { SubmitResult } from '../../processing/pipeline.ts';
import { emptyFix } from '../decoded.ts';
import type { ProtocolDefinition } from '../protocol.ts';
import { DeviceSession, type SessionChannel } from './device-session.ts';
import { InFlightLimit } from './in-flight.ts';
import type { ListenerHub } from './listener-hub.ts';

/** `ID,<id>` logs in (ack `OK`); `P,<seq>` is one position (ack `OK,<seq>`). */
const protocol: ProtocolDefinition = {
  name: 'fake',
  defaultPort: 0,
  transports: ['tcp'],
  logAs: 'text',
  maxFrameBytes: 64,
  frameLength: (buffer, offset) => buffer.length - offset,
  decode(frame, _session, now) {
    const [kind, arg] = frame.toString('latin1').split(',');
    if (kind === 'ID') return { uniqueId: arg, ack: Buffer.from('OK') };
    return { fixes: [emptyFix('fake', now)], ack: Buffer.from(`OK,${arg}`) };
  },
  encodeCommand: () => null,
};

function setUp() {
  const entry = { id: 1, uniqueId: 'dev', row: { disabled: 0, expirationTime: null } } as unknown as DeviceEntry;
  const commits: Array<() => void> = [];
  const inFlight = new InFlightLimit(1_000);
  const noop = () => undefined;
  const hub = {
    stats: { frames: 0, acks: 0, throttled: 0, notStored: 0, garbage: 0, unknown: 0 },
    settings: { highWater: 1_000, lowWater: 500 },
    inFlight,
    rawLog: { add: noop },
    registry: { add: noop, remove: () => false },
    log: { debug: noop, info: noop, warn: noop, error: noop },
    frameDone: noop,
    processing: {
      devices: { get: () => entry, byId: () => entry },
      status: { markOffline: noop },
      pipeline: {
        writer: { admit: noop },
        deviceSpoke: noop,
        submit: () =>
          new Promise<SubmitResult>((resolve) => commits.push(() => resolve({ kind: 'stored' } as SubmitResult))),
      },
    },
  } as unknown as ListenerHub;
  const written: string[] = [];
  const channel: SessionChannel = { kind: 'tcp', write: (data) => written.push(data.toString('latin1')), end: noop, destroy: noop, resume: noop };
  const session = new DeviceSession(hub, protocol, channel, '127.0.0.1:1');
  const send = (text: string) => session.receive(Buffer.from(text, 'latin1'), Date.now());
  /** Settles the oldest commit still pending. */
  const commitOldest = async () => {
    commits.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { session, send, commitOldest, written, inFlight };
}

describe('DeviceSession', () => {
  it('counts its positions in flight until their commit', async () => {
    const { send, commitOldest, written, inFlight } = setUp();
    send('ID,dev');
    send('P,1');
    send('P,2');
    expect(inFlight.count).toBe(2);
    await commitOldest();
    expect(inFlight.count).toBe(1);
    await commitOldest();
    expect(inFlight.count).toBe(0);
    expect(written).toEqual(['OK', 'OK,1', 'OK,2']);
  });

  it('keeps its ack queue short when a frame is always waiting for its commit', async () => {
    const { session, send, commitOldest, written } = setUp();
    send('ID,dev');
    send('P,0');
    let longest = 0;
    for (let i = 1; i <= 1_000; i++) {
      send(`P,${i}`);
      await commitOldest();
      longest = Math.max(longest, session.ackSlots);
    }
    await commitOldest();
    expect(written).toEqual(['OK', ...Array.from({ length: 1_001 }, (_, i) => `OK,${i}`)]);
    // The settled acks at the head are dropped as it goes, instead of one slot kept per frame.
    expect(longest).toBeLessThanOrEqual(130);
    expect(session.ackSlots).toBe(0);
  });
});
