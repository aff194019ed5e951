// The window of the new-logic trips machine (motion-state.ts): the positions of the last
// minDuration of one device, oldest first, numbered consecutively as they were pushed.
//
// It is a ring of numbers, not of objects: every entry's fix time, place and speed (what the
// machine reads on each push) sit in one Float64Array, one row per entry. A live device at one
// report a second holds 180 entries, and a tracker emptying its buffer after a coverage gap far
// more, so the live machine also packs the positions the writer has stored ("compactStored"):
// their id and what a trip or stop segment dated at them reads (segments.ts segmentRecord: the
// numeric attributes below, address, driverUniqueId) join the row, and the object is let go.
// A packed entry becomes an object again (a WindowFix) only when a change is dated at it.
// Entries not stored yet stay the caller's objects: the writer finds a change dated at one of
// them in its flush by identity (motion-write.ts positionRef).
//
// The ring grows by half when full and shrinks when a trim leaves it two-thirds empty, so a
// device that slows down gives the memory back (and a window of 37 entries, one report every
// 5 s, takes 40 slots, not 64).
import type { MotionPoint } from './motion-state.ts';

/** A stored position as a packed window entry gives it back: what a segment or event dated at it reads. */
export interface WindowFix extends MotionPoint {
  id: number;
  address: string | null;
  /** Only the keys of PACKED_NUMBERS that hold a finite number, and driverUniqueId when it is a non-empty string. */
  attributes: Record<string, unknown>;
}

/**
 * The numeric attributes a segment reads from its boundary positions (segments.ts: distance,
 * fuel, engine hours). It reads them only as finite numbers (anything else counts as absent),
 * which is all a packed entry keeps.
 */
export const PACKED_NUMBERS = ['totalDistance', 'odometer', 'hours', 'fuelUsed', 'fuel', 'fuelLevel'] as const;

// Row layout: the core columns, then one column per packed attribute this device has had.
const FIX_TIME = 0;
const LATITUDE = 1;
const LONGITUDE = 2;
const SPEED = 3;
const ID = 4;
const CORE = 5;
const MIN_CAPACITY = 8;

export class MotionWindow<P extends MotionPoint> {
  /** Entries held. */
  size = 0;
  /** Sequence number of the oldest entry (entries are numbered consecutively from 1). */
  private first = 1;
  private capacity = MIN_CAPACITY;
  private head = 0;
  private width = CORE;
  private rows = new Float64Array(MIN_CAPACITY * CORE);
  /** Attribute columns after the core ones (keys of PACKED_NUMBERS the device has reported). */
  private columns: string[] = [];
  /**
   * Per slot: the position itself until it is packed; then its address, if it has one. The
   * packed entries are the oldest `packed` of the window (positions are stored in order).
   */
  private objects: Array<P | string | undefined> = new Array<P | string | undefined>(MIN_CAPACITY);
  /** Per slot, a packed entry's driverUniqueId (allocated once the device has reported one). */
  private drivers: Array<string | undefined> | null = null;
  private packed = 0;

  /** Slots allocated (tests: the ring gives memory back). */
  get slots(): number {
    return this.capacity;
  }

  /** Sequence number of entry `i` (0 = oldest). */
  seqAt(i: number): number {
    return this.first + i;
  }

  /** Sequence number of the newest entry (that of the last one dropped when empty). */
  get lastSeq(): number {
    return this.first + this.size - 1;
  }

  private slot(i: number): number {
    const k = this.head + i;
    return k < this.capacity ? k : k - this.capacity;
  }

  fixTime(i: number): number {
    return this.rows[this.slot(i) * this.width + FIX_TIME]!;
  }

  latitude(i: number): number {
    return this.rows[this.slot(i) * this.width + LATITUDE]!;
  }

  longitude(i: number): number {
    return this.rows[this.slot(i) * this.width + LONGITUDE]!;
  }

  speed(i: number): number {
    return this.rows[this.slot(i) * this.width + SPEED]!;
  }

  /** True when entry `i` is the caller's object `p` (not packed). */
  holds(i: number, p: P): boolean {
    return i >= this.packed && this.objects[this.slot(i)] === p;
  }

  /** Entry `i` as a position: the caller's object, or a new WindowFix when packed. */
  point(i: number): P | WindowFix {
    const k = this.slot(i);
    if (i >= this.packed) return this.objects[k] as P;
    const w = this.width;
    const base = k * w;
    const rows = this.rows;
    const attributes: Record<string, unknown> = {};
    for (let c = 0; c < this.columns.length; c++) {
      const v = rows[base + CORE + c]!;
      if (!Number.isNaN(v)) attributes[this.columns[c]!] = v;
    }
    const driver = this.drivers?.[k];
    if (driver !== undefined) attributes.driverUniqueId = driver;
    const address = this.objects[k];
    return {
      id: rows[base + ID]!,
      fixTime: rows[base + FIX_TIME]!,
      latitude: rows[base + LATITUDE]!,
      longitude: rows[base + LONGITUDE]!,
      speed: rows[base + SPEED]!,
      address: typeof address === 'string' ? address : null,
      attributes,
    };
  }

  /** Adds `p` as the newest entry; returns its sequence number. */
  append(p: P): number {
    if (this.size === this.capacity) this.resize(Math.ceil(this.capacity * 1.5), this.columns.length);
    const k = this.slot(this.size);
    const base = k * this.width;
    const rows = this.rows;
    rows[base + FIX_TIME] = p.fixTime;
    rows[base + LATITUDE] = p.latitude;
    rows[base + LONGITUDE] = p.longitude;
    rows[base + SPEED] = p.speed;
    this.objects[k] = p;
    this.size++;
    return this.lastSeq;
  }

  /** Drops the oldest entry. */
  dropOldest(): void {
    const k = this.head;
    this.objects[k] = undefined;
    if (this.drivers) this.drivers[k] = undefined;
    this.head = k + 1 === this.capacity ? 0 : k + 1;
    this.size--;
    this.first++;
    if (this.packed > 0) this.packed--;
  }

  /** After drops: a ring at most a third full shrinks to half as many slots again as entries. */
  shrink(): void {
    if (this.capacity > MIN_CAPACITY && this.size * 3 <= this.capacity) {
      this.resize(Math.max(MIN_CAPACITY, Math.ceil(this.size * 1.5)), this.columns.length);
    }
  }

  /** Empties the window (sequence numbers go on). */
  clear(): void {
    while (this.size > 0) this.dropOldest();
    this.shrink();
  }

  /**
   * Packs the entries before entry `end` that are stored (have an id), oldest first, stopping at
   * the first one that is not: a push costs the positions stored since the last one.
   */
  pack(end: number): void {
    for (let i = this.packed; i < end; i++) {
      const k = this.slot(i);
      const p = this.objects[k] as P & { address?: string | null };
      if (p.id === null) return;
      const attributes = p.attributes;
      for (const key of PACKED_NUMBERS) {
        const v = attributes[key];
        if (typeof v === 'number' && Number.isFinite(v) && !this.columns.includes(key)) this.addColumn(key);
      }
      const base = k * this.width;
      const rows = this.rows;
      rows[base + ID] = p.id;
      for (let c = 0; c < this.columns.length; c++) {
        const v = attributes[this.columns[c]!];
        rows[base + CORE + c] = typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN;
      }
      const driver = attributes.driverUniqueId;
      if (typeof driver === 'string' && driver !== '') (this.drivers ??= new Array<string | undefined>(this.capacity))[k] = driver;
      this.objects[k] = typeof p.address === 'string' ? p.address : undefined;
      this.packed = i + 1;
    }
  }

  private addColumn(key: string): void {
    this.resize(this.capacity, this.columns.length + 1);
    this.columns.push(key);
    // Entries packed before the device reported this key do not have it.
    for (let i = 0; i < this.packed; i++) this.rows[this.slot(i) * this.width + CORE + this.columns.length - 1] = Number.NaN;
  }

  /** New storage of `capacity` slots with `extra` attribute columns, entries moved to slots 0…size-1. */
  private resize(capacity: number, extra: number): void {
    const width = CORE + extra;
    const rows = new Float64Array(capacity * width);
    const objects = new Array<P | string | undefined>(capacity);
    const drivers = this.drivers ? new Array<string | undefined>(capacity) : null;
    const copied = Math.min(this.width, width);
    for (let i = 0; i < this.size; i++) {
      const k = this.slot(i);
      const from = k * this.width;
      const to = i * width;
      for (let c = 0; c < copied; c++) rows[to + c] = this.rows[from + c]!;
      objects[i] = this.objects[k];
      if (drivers) drivers[i] = this.drivers![k];
    }
    this.rows = rows;
    this.objects = objects;
    this.drivers = drivers;
    this.capacity = capacity;
    this.width = width;
    this.head = 0;
  }
}
