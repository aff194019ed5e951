// What the trips and stops reports share: per-device trip settings, the fast/slow choice and
// the segment stream of one device (motion/motion-report.ts). Requested devices the caller
// cannot see were already left out by readReportRequest, as for every report (Traccar keeps
// only the accessible devices of the request, silently).
import { parseAttributes } from '../http/json.ts';
import { deviceMotionConfig, segmentOptions } from '../motion/motion-step.ts';
import { lateIdsOf, motionSegmentsOf, motionStatesOf, prepareFast, type ReportPath } from '../motion/motion-report.ts';
import type { SegmentRecord } from '../motion/segments.ts';
import { pathParam, type ReportRequest } from './report-request.ts';
import type { ReportDevice } from './reports-repo.ts';

export interface MotionItem extends SegmentRecord {
  deviceId: number;
  deviceName: string;
}

/**
 * Opens a trips or stops report: checks the request, then returns the per-device producer.
 * `path` (not a Traccar parameter): `slow` replays every position (the oracle the tests compare
 * the default fast path with).
 */
export async function openMotionReport(request: ReportRequest, kind: 'trip' | 'stop'): Promise<(device: ReportDevice) => AsyncIterable<MotionItem>> {
  const path: ReportPath = pathParam(request.query);
  const lookup = request.lookup;
  const db = request.ctx.storage.db;
  const ids = request.devices.map((d) => d.id);
  const states = path === 'fast' ? await motionStatesOf(db, ids) : undefined;
  const late = await lateIdsOf(db, ids, request.from, request.to);
  const settings = (device: ReportDevice) => {
    const source = { json: { attributes: parseAttributes(device.attributes), groupId: device.groupId } };
    const config = deviceMotionConfig(lookup, source);
    return { config, options: segmentOptions(config, source.json.attributes) };
  };
  // Fast path: devices are prepared a batch at a time (shared reads), the others run alone.
  const index = new Map(request.devices.map((d, i) => [d.id, i]));
  let prepared = new Map<number, SegmentRecord[]>();
  let preparedEnd = 0;
  return async function* (device) {
    const { config, options } = settings(device);
    if (path === 'fast' && states) {
      const i = index.get(device.id) ?? 0;
      if (i >= preparedEnd) {
        const batch = request.devices.slice(i, i + PREPARE_BATCH);
        prepared = await prepareFast(db, batch.map((d) => ({ id: d.id, options: settings(d).options })), request.from, request.to, states, late);
        preparedEnd = i + batch.length;
      }
      const ready = prepared.get(device.id);
      if (ready) {
        for (const s of ready) if (s.kind === kind) yield { ...s, deviceId: device.id, deviceName: device.name };
        return;
      }
    }
    for await (const s of motionSegmentsOf(db, device.id, config, options, request.from, request.to, path, states, late)) {
      if (s.kind === kind) yield { ...s, deviceId: device.id, deviceName: device.name };
    }
  };
}

/** Devices prepared together on the fast path. */
const PREPARE_BATCH = 100;
