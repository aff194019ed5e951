// Crafted positions for the handlers' unit tests.
import { emptyFix } from '../ingest/decoded.ts';
import { draftFromFix, type PositionDraft } from '../processing/position-draft.ts';

export const T0 = Date.UTC(2026, 0, 1, 12);

/** A position at second `s` after T0 (fix and device time), with overrides. */
export function at(s: number, over: Partial<PositionDraft> = {}): PositionDraft {
  const base = draftFromFix(emptyFix('osmand', T0 + s * 1000), 1, T0 + s * 1000);
  return { ...base, fixTime: T0 + s * 1000, deviceTime: T0 + s * 1000, ...over, attributes: { ...(over.attributes ?? {}) } };
}

/** Runs a handler over a sequence, each position with the one before as `previous`; returns all events. */
export function track<E>(positions: PositionDraft[], handler: (out: E[], p: PositionDraft, prev: PositionDraft | null) => void): E[] {
  const out: E[] = [];
  let prev: PositionDraft | null = null;
  for (const p of positions) {
    handler(out, p, prev);
    prev = p;
  }
  return out;
}
