// deviceOverspeed (reference A.5). The limit (knots) is the device's `speedLimit` (device ->
// groups -> server attribute), replaced by the position's own `speedLimit` attribute (an
// online speed-limit provider) when present, and by the `speedLimit` of geofences containing
// the position when there are any (the highest; the lowest with event.overspeed.preferLowest).
// Overspeed while speed > limit × event.overspeed.thresholdMultiplier. One event per episode,
// once the excess lasted event.overspeed.minimalDuration (0: on the first exceeding position);
// the episode ends when speed falls to the threshold or below. Limit 0: disabled (state kept).
//
// State, as Traccar keeps it on the device row (hidden columns overspeedState, overspeedTime,
// overspeedGeofenceId): `state` = inside an episode; `time` = when it began, cleared once
// its event was raised (so null inside an episode = already reported).
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import { asNumber, positionEvent } from './event.ts';

export interface OverspeedState {
  state: boolean;
  time: number | null;
  geofenceId: number;
}

export interface SpeedLimit {
  limit: number;
  geofenceId: number;
}

/** Geofence speed limits by id (the geofence cache answers this). */
export type GeofenceSpeedLimit = (geofenceId: number) => number;

const NO_LIMIT: SpeedLimit = Object.freeze({ limit: 0, geofenceId: 0 });

export function speedLimitFor(position: PositionDraft, deviceLimit: number, geofenceLimit: GeofenceSpeedLimit, preferLowest: boolean): SpeedLimit {
  const ids = position.geofenceIds;
  const own = position.attributes.speedLimit === undefined ? undefined : asNumber(position.attributes.speedLimit);
  // The common case (no limit anywhere) allocates nothing.
  if (deviceLimit <= 0 && own === undefined && ids === null) return NO_LIMIT;
  let limit = deviceLimit;
  let geofenceId = 0;
  if (own !== undefined) limit = own;
  if (ids) {
    let best = 0;
    for (const id of ids) {
      const l = geofenceLimit(id);
      if (l > 0 && (best === 0 || (preferLowest ? l < best : l > best))) {
        best = l;
        geofenceId = id;
      }
    }
    if (best > 0) limit = best;
  }
  return { limit, geofenceId };
}

/**
 * Moves the state with one (in-order) position; returns the event when one is due.
 * `minimalDurationMs` from event.overspeed.minimalDuration (seconds × 1000).
 */
export function updateOverspeed(
  state: OverspeedState, position: PositionDraft, limit: SpeedLimit, multiplier: number, minimalDurationMs: number,
): EventDraft | null {
  if (limit.limit <= 0) return null;
  const over = position.speed > limit.limit * multiplier;
  if (!over) {
    if (state.state) {
      state.state = false;
      state.time = null;
      state.geofenceId = 0;
    }
    return null;
  }
  if (!state.state) {
    state.state = true;
    state.time = position.fixTime;
    state.geofenceId = limit.geofenceId;
  }
  if (state.time !== null && position.fixTime - state.time >= minimalDurationMs) {
    const event = positionEvent('deviceOverspeed', position, { speed: position.speed, speedLimit: limit.limit }, state.geofenceId);
    state.time = null;
    state.geofenceId = 0;
    return event;
  }
  return null;
}
