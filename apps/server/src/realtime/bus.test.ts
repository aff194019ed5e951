import { describe, expect, it } from 'vitest';
import { parseEnvelope } from './bus.ts';

describe('realtime bus messages', () => {
  it('reads `<instanceId>:<json>` envelopes of live batches and changes', () => {
    const batch = { positions: [{ id: 1, deviceId: 2 }] };
    expect(parseEnvelope(`abc-123:${JSON.stringify({ live: batch })}`)).toEqual({ live: batch });
    expect(parseEnvelope('abc:{"change":{"kind":"permissions"}}')).toEqual({ change: { kind: 'permissions' } });
    expect(parseEnvelope('abc:{"change":{"kind":"device","id":7}}')).toEqual({ change: { kind: 'device', id: 7 } });
    // Changes of the entity resources reach the other instances' caches too.
    for (const kind of ['calendar', 'driver', 'maintenance', 'computedAttribute', 'notification']) {
      expect(parseEnvelope(`abc:{"change":{"kind":"${kind}","id":3}}`)).toEqual({ change: { kind, id: 3 } });
    }
    expect(parseEnvelope('abc:{"logWish":true}')).toEqual({ logWish: true });
    expect(parseEnvelope('abc:{"logWish":false}')).toEqual({ logWish: false });
    expect(parseEnvelope('abc:{"logWish":"ask"}')).toEqual({ logWish: 'ask' });
  });

  it('refuses anything else instead of passing it on', () => {
    expect(parseEnvelope('no-colon-here')).toBeNull();
    expect(parseEnvelope(':{"live":{}}')).toBeNull();
    expect(parseEnvelope('abc:not json')).toBeNull();
    expect(parseEnvelope('abc:[1,2]')).toBeNull();
    expect(parseEnvelope('abc:{"live":[1]}')).toBeNull();
    expect(parseEnvelope('abc:{"change":{"kind":"reboot"}}')).toBeNull();
    expect(parseEnvelope('abc:{"change":{"kind":"device"}}')).toBeNull();
    expect(parseEnvelope('abc:{"other":1}')).toBeNull();
    expect(parseEnvelope('abc:{"logWish":"yes"}')).toBeNull();
    expect(parseEnvelope('abc:{"logWish":1}')).toBeNull();
  });
});
