import { beforeEach, describe, expect, it } from 'vitest';
import type { Event, Position } from '@rastro/domain/entities';
import { deliveredBy, markDelivered, recordSent, usePending } from './pending-store.ts';

describe('pending commands', () => {
  beforeEach(() => usePending.setState({ byDevice: {} }));
  it('a 202 is pending until a queuedCommandSent event or a newer position of the device', () => {
    recordSent(3, 'Lock', true, 1_000_000);
    const p = usePending.getState().byDevice[3]!;
    expect(p.state).toBe('pending');
    const other = { deviceId: 4, type: 'queuedCommandSent', eventTime: new Date(1_000_500).toISOString() } as Event;
    expect(deliveredBy(p, [other], undefined)).toBeNull();
    const old = { deviceId: 3, serverTime: new Date(999_000).toISOString() } as Position;
    expect(deliveredBy(p, [], old)).toBeNull();
    const event = { ...other, deviceId: 3 };
    expect(deliveredBy(p, [event], old)).toBe(1_000_500);
    const fresh = { deviceId: 3, serverTime: new Date(1_002_000).toISOString() } as Position;
    expect(deliveredBy(p, [], fresh)).toBe(1_002_000);
    markDelivered(3, 1_002_000);
    expect(usePending.getState().byDevice[3]).toMatchObject({ state: 'delivered', deliveredAt: 1_002_000 });
  });
  it('a 200 is sent at once', () => {
    recordSent(5, 'Unlock', false);
    expect(usePending.getState().byDevice[5]!.state).toBe('sent');
  });
});
