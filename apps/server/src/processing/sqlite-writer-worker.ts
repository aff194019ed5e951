// The SQLite writer thread: its own better-sqlite3 connection to the database file, running
// the position writer's flushes (one IMMEDIATE transaction each, in the order they arrive)
// so that SQLite's synchronous work never blocks the main event loop. Started and fed by
// sqlite-write-store.ts. Loaded through tsx's CommonJS hook: no `import.meta` here, and
// nothing but better-sqlite3 and the small protocol file at run time.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  DEVICE_COLUMN_NAME, DEVICE_FIELDS, EVENT_POSITION, EVENT_WIDTH, MOTION_STATE_REFS, MOTION_STATE_WIDTH, POSITION_WIDTH,
  SEGMENT_REFS, SEGMENT_WIDTH, resolvePositionRef, type FlushRequest, type FlushResult, type FromWriterThread, type ToWriterThread, type WriterThreadInit,
} from './writer-protocol.ts';

const init = workerData as WriterThreadInit;
const port = parentPort!;

const db = new SQLite(init.file);
// journal_mode is a property of the file (the main connection set WAL); the rest is per connection.
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma(`busy_timeout = ${Math.max(0, Math.floor(init.busyTimeoutMs))}`);

const insertPosition = db.prepare(init.statements.insertPosition);
const insertEvent = db.prepare(init.statements.insertEvent);
const updateDevice = db.prepare(init.statements.updateDevice);
const insertSegment = db.prepare(init.statements.insertSegment);
const upsertMotionState = db.prepare(init.statements.upsertMotionState);

// Hidden device columns (overspeed / motion state): one prepared UPDATE per column, made on first use.
const columnUpdates = new Map<string, SQLite.Statement>();
function updateDeviceColumn(id: unknown, column: string, value: unknown): void {
  let statement = columnUpdates.get(column);
  if (!statement) {
    if (!DEVICE_COLUMN_NAME.test(column)) throw new Error(`invalid device column ${JSON.stringify(column)}`);
    statement = db.prepare(`update "devices" set "${column}" = ? where "id" = ?`);
    columnUpdates.set(column, statement);
  }
  statement.run(value, id);
}

// Reused parameter rows: binding from an array costs no allocation per row.
const positionRow = new Array<unknown>(POSITION_WIDTH);
const eventRow = new Array<unknown>(EVENT_WIDTH);
const segmentRow = new Array<unknown>(SEGMENT_WIDTH);
const motionStateRow = new Array<unknown>(MOTION_STATE_WIDTH);

/** Runs `statement` once per `width` values, position references resolved to ids. */
function insertRows(statement: SQLite.Statement, row: unknown[], values: readonly unknown[] | undefined, refs: readonly number[], ids: readonly number[]): void {
  if (!values) return;
  const width = row.length;
  for (let k = 0; k < values.length; k += width) {
    for (let c = 0; c < width; c++) row[c] = values[k + c];
    for (const r of refs) row[r] = resolvePositionRef(values[k + r], ids);
    statement.run(row);
  }
}

const flush = db.transaction((request: FlushRequest): FlushResult => {
  const { positions, events, devices } = request;
  const positionIds = new Array<number>(positions.length / POSITION_WIDTH);
  for (let k = 0, n = 0; k < positions.length; k += POSITION_WIDTH, n++) {
    for (let c = 0; c < POSITION_WIDTH; c++) positionRow[c] = positions[k + c];
    positionIds[n] = Number(insertPosition.run(positionRow).lastInsertRowid);
  }
  const eventIds = new Array<number>(events.length / EVENT_WIDTH);
  for (let k = 0, n = 0; k < events.length; k += EVENT_WIDTH, n++) {
    for (let c = 0; c < EVENT_WIDTH; c++) eventRow[c] = events[k + c];
    eventRow[EVENT_POSITION] = resolvePositionRef(events[k + EVENT_POSITION], positionIds) ?? 0;
    eventIds[n] = Number(insertEvent.run(eventRow).lastInsertRowid);
  }
  insertRows(insertSegment, segmentRow, request.segments, SEGMENT_REFS, positionIds);
  insertRows(upsertMotionState, motionStateRow, request.motionStates, MOTION_STATE_REFS, positionIds);
  for (let k = 0; k < devices.length; k += DEVICE_FIELDS) {
    const latest = devices[k + 4] as number;
    updateDevice.run(devices[k + 1], devices[k + 2], latest >= 0 ? positionIds[latest] : devices[k + 3], devices[k]);
  }
  const columns = request.deviceColumns;
  if (columns) for (let k = 0; k + 2 < columns.length; k += 3) updateDeviceColumn(columns[k], columns[k + 1] as string, columns[k + 2]);
  return { positionIds, eventIds };
});

const send = (message: FromWriterThread) => port.postMessage(message);

// Checkpoints: left to SQLite, one runs inside the commit that crosses wal_autocheckpoint
// (1,000 pages) and holds that flush's answers for the copy and its fsyncs. The thread runs a
// PASSIVE checkpoint itself instead, after answering every `checkpointEvery` flushes once
// `checkpointIntervalMs` have passed since the last one (on setImmediate: a flush already
// waiting goes first). The interval matters at light load, where each flush holds a position
// or two; flushes that stop leave a few frames until the next flush or the close.
db.pragma('wal_autocheckpoint = 0');
let sinceCheckpoint = 0;
let checkpointQueued = false;
let lastCheckpoint = performance.now();

function checkpoint(): void {
  checkpointQueued = false;
  sinceCheckpoint = 0;
  lastCheckpoint = performance.now();
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // The next one catches up; the main connection's own autocheckpoint still runs on its commits.
  }
}

function afterFlush(): void {
  if (++sinceCheckpoint < init.checkpointEvery || checkpointQueued) return;
  if (performance.now() - lastCheckpoint < init.checkpointIntervalMs) return;
  checkpointQueued = true;
  setImmediate(checkpoint);
}

port.on('message', (message: ToWriterThread) => {
  if (message.type === 'close') {
    if (sinceCheckpoint > 0) checkpoint();
    db.close();
    port.close(); // nothing left to keep the thread alive: it exits
    return;
  }
  const started = performance.now();
  try {
    const result = flush.immediate(message.request);
    send({ type: 'done', id: message.id, ms: performance.now() - started, ...result });
    afterFlush();
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const code = (e as { code?: unknown }).code;
    send({ type: 'failed', id: message.id, error: { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) } });
  }
});

send({ type: 'ready' });
