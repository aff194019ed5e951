// The detail's "last 3 hours" motion bar (tarkan-reference §3.9; server option "show stops and
// events", tarkan.enableStops): the route of a time window cut into segments where the motion
// attribute changes. Before the first position the state is unknown ("none").

export type MotionKind = 'moving' | 'stopped' | 'none';

export interface MotionSegment {
  kind: MotionKind;
  /** Epoch ms, within [from, to]. */
  start: number;
  end: number;
}

export interface MotionPoint {
  fixTime: string;
  attributes?: { motion?: unknown } | null;
}

export const MOTION_WINDOW_MS = 3 * 60 * 60 * 1000;

const isMotion = (v: unknown) => v === true || v === 'true';

/** Segments covering [from, to] in order, equal neighbours merged, empty ones dropped. */
export function motionSegments(points: readonly MotionPoint[], from: number, to: number): MotionSegment[] {
  if (!(to > from)) return [];
  const timed = points
    .map((p) => ({ at: Date.parse(p.fixTime), kind: (isMotion(p.attributes?.motion) ? 'moving' : 'stopped') as MotionKind }))
    .filter((p) => Number.isFinite(p.at) && p.at <= to)
    .sort((a, b) => a.at - b.at);
  const out: MotionSegment[] = [];
  const push = (kind: MotionKind, start: number, end: number) => {
    const s = Math.max(from, start);
    const e = Math.min(to, end);
    if (e <= s) return;
    const last = out[out.length - 1];
    if (last && last.kind === kind && last.end === s) last.end = e;
    else out.push({ kind, start: s, end: e });
  };
  // A position before the window tells the state at its start.
  let state: MotionKind = 'none';
  let since = from;
  for (const p of timed) {
    if (p.at <= from) {
      state = p.kind;
      continue;
    }
    push(state, since, p.at);
    state = p.kind;
    since = p.at;
  }
  push(state, since, to);
  return out;
}

/** Total milliseconds per kind. */
export function motionTotals(segments: readonly MotionSegment[]): Record<MotionKind, number> {
  const totals: Record<MotionKind, number> = { moving: 0, stopped: 0, none: 0 };
  for (const s of segments) totals[s.kind] += s.end - s.start;
  return totals;
}
