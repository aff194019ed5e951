// Spreadsheets of the reports, written with exceljs's streaming workbook writer: rows are
// committed as they are produced, so a long report never sits in memory as a workbook.
// A layout lists the columns; headers come from report-texts in the caller's language, speeds
// and distances are converted to the caller's units (the unit in the header), times are shown
// as the wall clock of the caller's time zone.
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { distanceFromMetres, speedFromKnots, DISTANCE_LABEL, SPEED_LABEL } from '@rastro/domain/units';
import { wallClock } from '@rastro/domain/report-days';
import type { ReportPrefs } from './report-request.ts';
import { REPORT_TEXTS, eventTypeName, type TextKey } from './report-texts.ts';
import type { ReportDevice } from './reports-repo.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type Cell = string | number | boolean | Date | null;

/** Value conversions in the caller's preferences. */
export interface Formatter {
  prefs: ReportPrefs;
  text(key: TextKey): string;
  /** Epoch ms → a Date whose UTC reading is the wall clock in the caller's zone (what Excel shows). */
  time(ms: number | null | undefined): Date | null;
  /** Knots → the caller's speed unit, 2 decimals. */
  speed(knots: number): number;
  /** Metres → km or miles, 2 decimals. */
  distance(metres: number): number;
  /** Milliseconds → days (Excel's duration value; shown as [h]:mm:ss). */
  duration(ms: number): number;
  eventType(type: string): string;
}

export type ColumnKind = 'text' | 'number' | 'time' | 'speed' | 'distance' | 'duration' | 'coordinate';

export interface Column<T> {
  header: TextKey;
  kind: ColumnKind;
  value(item: T, f: Formatter): Cell;
  width?: number;
}

export interface SheetLayout<T> {
  /** Sheet (and file) title. */
  title: TextKey;
  /** One sheet per device (route, events, trips, stops) or one sheet for all (summary). */
  perDevice: boolean;
  columns: Array<Column<T>>;
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

export function formatter(prefs: ReportPrefs): Formatter {
  const texts = REPORT_TEXTS[prefs.language];
  return {
    prefs,
    text: (key) => texts[key],
    time: (ms) => (ms === null || ms === undefined ? null : new Date(wallClock(ms, prefs.timeZone))),
    speed: (knots) => round(speedFromKnots(knots, prefs.speedUnit), 2),
    distance: (metres) => round(distanceFromMetres(metres, prefs.distanceUnit), 2),
    duration: (ms) => ms / 86_400_000,
    eventType: (type) => eventTypeName(prefs.language, type),
  };
}

const NUM_FMT: Partial<Record<ColumnKind, string>> = {
  time: 'yyyy-mm-dd hh:mm:ss',
  speed: '0.00',
  distance: '0.00',
  duration: '[h]:mm:ss',
  coordinate: '0.000000',
};

const WIDTH: Record<ColumnKind, number> = { text: 24, number: 12, time: 20, speed: 14, distance: 14, duration: 14, coordinate: 12 };

/** Header of a column: its text, with the unit for speeds and distances. */
export function headerOf<T>(column: Column<T>, f: Formatter): string {
  const text = f.text(column.header);
  if (column.kind === 'speed') return `${text} (${SPEED_LABEL[f.prefs.speedUnit]})`;
  if (column.kind === 'distance') return `${text} (${DISTANCE_LABEL[f.prefs.distanceUnit]})`;
  return text;
}

/** A valid, unique sheet name (≤ 31 characters, none of []:*?/\). */
export function sheetName(wanted: string, used: Set<string>): string {
  const base = (wanted.replace(/[[\]:*?/\\]/g, ' ').replace(/^'+|'+$/g, '').trim() || 'Sheet').slice(0, 31);
  let name = base;
  for (let n = 2; used.has(name.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    name = base.slice(0, 31 - suffix.length) + suffix;
  }
  used.add(name.toLowerCase());
  return name;
}

/** A file name: `<title>_<from day>_<to day>.xlsx`, days in the caller's zone, ASCII only. */
export function fileName(title: string, from: number, to: number, timeZone: string): string {
  const day = (ms: number) => new Date(wallClock(ms, timeZone)).toISOString().slice(0, 10);
  const safe = title.normalize('NFD').replace(/[^\w-]+/g, '').toLowerCase() || 'report';
  return `${safe}_${day(from)}_${day(to)}.xlsx`;
}

export interface XlsxSource<T> {
  layout: SheetLayout<T>;
  prefs: ReportPrefs;
  devices: ReportDevice[];
  rows(device: ReportDevice): AsyncIterable<T>;
}

/** Rows committed between two looks at the reader's pace. */
const ROWS_PER_CHECK = 200;

/**
 * Waits while the reader is behind. exceljs writes each committed row on into the zip without
 * waiting for the reader, so a reader that stops would let rows pile up in memory; instead
 * the rows stop being read until it takes what was written. The zip works asynchronously: a
 * turn of the event loop lets it catch up first.
 */
async function readerCaughtUp(out: PassThrough): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  while (!out.destroyed && out.readableLength >= out.readableHighWaterMark) await sleep(10);
}

/**
 * Starts writing the workbook into a stream and returns it at once; rows are pulled from
 * `rows` device by device and committed as they come, as fast as the stream is read. A
 * failure destroys the stream; destroying it (the reader left) stops the rows.
 */
export function xlsxStream<T>(source: XlsxSource<T>): PassThrough {
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const f = formatter(source.prefs);
  const { layout } = source;
  const used = new Set<string>();

  const newSheet = (name: string) => {
    const sheet = workbook.addWorksheet(sheetName(name, used), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = layout.columns.map((c, i) => ({
      header: headerOf(c, f),
      key: `c${i}`,
      width: c.width ?? WIDTH[c.kind],
      ...(NUM_FMT[c.kind] ? { style: { numFmt: NUM_FMT[c.kind] } } : {}),
    }));
    sheet.getRow(1).font = { bold: true };
    return sheet;
  };

  const fill = async () => {
    let shared: ExcelJS.Worksheet | null = layout.perDevice ? null : newSheet(f.text(layout.title));
    let sheets = shared ? 1 : 0;
    let sinceCheck = 0;
    for (const device of source.devices) {
      const sheet = shared ?? newSheet(device.name);
      if (!shared) sheets++;
      for await (const item of source.rows(device)) {
        if (out.destroyed) return;
        sheet.addRow(layout.columns.map((c) => c.value(item, f))).commit();
        if (++sinceCheck >= ROWS_PER_CHECK) {
          sinceCheck = 0;
          await readerCaughtUp(out);
        }
      }
      if (out.destroyed) return;
      if (!shared) sheet.commit();
    }
    // A workbook needs a sheet: an empty report still gets its headers.
    if (sheets === 0) shared = newSheet(f.text(layout.title));
    if (shared) shared.commit();
    await workbook.commit();
  };
  fill().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
