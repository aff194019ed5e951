// What one Suntech frame says, before it becomes the listener's FrameResult.
import type { DecodedFix } from '../decoded.ts';

export interface SuntechReport {
  uniqueId?: string;
  fix?: DecodedFix;
  /** A keep-alive (`ALV`): answered with its own text. */
  keepAlive?: boolean;
}

/** Report types whose fields hold a location. */
export const LOCATED_TYPES: ReadonlySet<string> = new Set(['STT', 'ALT', 'EMG', 'EVT', 'UEX']);
