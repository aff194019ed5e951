import { describe, expect, it } from 'vitest';
import { statusEvent } from './status-events.ts';
import { T0 } from './test-helpers.ts';

describe('status events', () => {
  it('one per change; null counts as offline', () => {
    expect(statusEvent(null, 'online', T0)).toMatchObject({ type: 'deviceOnline', eventTime: T0, geofenceId: 0 });
    expect(statusEvent('online', 'unknown', T0)?.type).toBe('deviceUnknown');
    expect(statusEvent('online', 'offline', T0)?.type).toBe('deviceOffline');
    expect(statusEvent(null, 'offline', T0)).toBeNull();
    expect(statusEvent('online', 'online', T0)).toBeNull();
  });
});
