// What a fleet of simulated trackers did, counted across all of them, and its one-line summary.

export interface TrackerStats {
  /** Trackers connected right now (TCP: greeted; UDP: socket open). */
  connected: number;
  /** Connections made, reconnections included. */
  connects: number;
  /** Frames written (hellos, reports, heartbeats, replies). */
  sent: number;
  /** Fixes those frames carried. */
  positions: number;
  /** Frames written that the protocol answers (hellos, and reports or heartbeats where acked). */
  ackable: number;
  acked: number;
  /** Connections dropped or refused (`errorKinds` says why). */
  errors: number;
  errorKinds: Map<string, number>;
  /** Times the server refused the device (unknown id). */
  rejected: number;
  /** Fixes sent again because their ack never came (the connection dropped first). */
  unacked: number;
  /** Fixes thrown away because the tracker's buffer was full. */
  dropped: number;
  commands: number;
}

export function newTrackerStats(): TrackerStats {
  return { connected: 0, connects: 0, sent: 0, positions: 0, ackable: 0, acked: 0, errors: 0, errorKinds: new Map(), rejected: 0, unacked: 0, dropped: 0, commands: 0 };
}

export function statsLine(s: TrackerStats, trackers: number): string {
  const parts = [
    `connected ${s.connected}/${trackers}`,
    `connections ${s.connects}`,
    `sent ${s.sent} frames (${s.positions} positions)`,
    `acked ${s.acked}`,
    `commands ${s.commands}`,
    `errors ${s.errors}`,
  ];
  if (s.rejected) parts.push(`refused ${s.rejected}`);
  if (s.unacked) parts.push(`resent ${s.unacked}`);
  if (s.dropped) parts.push(`dropped ${s.dropped}`);
  return parts.join(', ');
}

/** The reasons of the errors, most frequent first. */
export function errorLines(s: TrackerStats): string[] {
  return [...s.errorKinds].sort((a, b) => b[1] - a[1]).map(([why, n]) => `  ${n} × ${why}`);
}
