// The vehicle index of the live map: every vehicle's latest point in Web Mercator world
// coordinates (0..1, as MapLibre's) held in typed arrays by slot, and the pass that turns it into
// what the current view has to draw. It runs in vehicle-worker.ts (off the main thread); it is a
// plain class so tests and worker-less environments can run it directly.
//
// The pass is O(vehicles): each shown vehicle inside the view (plus a margin, so a pan shows
// vehicles before the next pass) falls into a grid cell of CELL_PX screen pixels at the current
// zoom, and the cells become clusters at their centroid. The grid is anchored to the world, not
// to the view, so panning never reshuffles clusters; only a zoom change does. Neighbouring cells
// whose centroids ended up close are merged once (a plain grid would otherwise draw two bubbles
// touching across a cell border). A cell holding one vehicle is that vehicle. Above
// clusterMaxZoom, or with clustering off, every vehicle in the view is returned as itself.

/** Cell size in screen pixels at the current zoom (≈ the clusterRadius of the older layer). */
export const CELL_PX = 60;
/** Two neighbouring cells whose centroids are closer than this (px) become one cluster. */
export const MERGE_PX = 40;
/** MapLibre's world size at zoom 0, in pixels. */
export const TILE_PX = 512;

/** Vehicle flags. */
export const SHOWN = 1;
export const ONLINE = 2;

export interface ViewQuery {
  /** World coordinates of the view centre. */
  cx: number;
  cy: number;
  /** Half the view's size in world units, margin included. */
  halfW: number;
  halfH: number;
  zoom: number;
  cluster: boolean;
  clusterMaxZoom: number;
  cellPx?: number;
}

/** What to draw: `n` items; count 1 is a single vehicle (id = device id). */
export interface ViewItems {
  n: number;
  /** World coordinates (x may lie outside 0..1 next to the antimeridian: it is unwrapped towards the view). */
  x: Float64Array;
  y: Float64Array;
  count: Int32Array;
  /** Device id of a single vehicle; for a cluster the smallest member id (a stable key). */
  id: Int32Array;
  online: Int32Array;
  /** Vehicles inside the queried area. */
  total: number;
}

export const lonToX = (lon: number) => (lon + 180) / 360;
export function latToY(lat: number): number {
  const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
}
export const xToLon = (x: number) => x * 360 - 180;
export const yToLat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

export class VehicleIndex {
  private slots = new Map<number, number>();
  private ids = new Int32Array(1024);
  private wx = new Float64Array(1024);
  private wy = new Float64Array(1024);
  private flags = new Uint8Array(1024);
  private used = 0;
  private free: number[] = [];

  get size(): number {
    return this.slots.size;
  }

  /** Adds or moves vehicles (flags 0 keeps the slot but hides it). */
  upsert(ids: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>, flags: ArrayLike<number>): void {
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      let slot = this.slots.get(id);
      if (slot === undefined) {
        slot = this.free.pop() ?? this.used++;
        if (slot >= this.ids.length) this.grow();
        this.slots.set(id, slot);
        this.ids[slot] = id;
      }
      this.wx[slot] = xs[i]!;
      this.wy[slot] = ys[i]!;
      this.flags[slot] = flags[i]!;
    }
  }

  remove(ids: ArrayLike<number>): void {
    for (let i = 0; i < ids.length; i++) {
      const slot = this.slots.get(ids[i]!);
      if (slot === undefined) continue;
      this.slots.delete(ids[i]!);
      this.flags[slot] = 0;
      this.free.push(slot);
    }
  }

  clear(): void {
    this.slots.clear();
    this.free = [];
    this.used = 0;
  }

  private grow(): void {
    const size = this.ids.length * 2;
    const ids = new Int32Array(size);
    ids.set(this.ids);
    const wx = new Float64Array(size);
    wx.set(this.wx);
    const wy = new Float64Array(size);
    wy.set(this.wy);
    const flags = new Uint8Array(size);
    flags.set(this.flags);
    Object.assign(this, { ids, wx, wy, flags });
  }

  /** The items of a view (see the top of the file). */
  query(q: ViewQuery): ViewItems {
    return clusterView(this.used, this.ids, this.wx, this.wy, this.flags, q);
  }
}

/** The pass itself, over the first `used` slots of the arrays. */
export function clusterView(
  used: number, ids: Int32Array, wx: Float64Array, wy: Float64Array, flags: Uint8Array, q: ViewQuery,
): ViewItems {
  const worldPx = TILE_PX * 2 ** q.zoom;
  const clustering = q.cluster && q.zoom < q.clusterMaxZoom + 1;
  const x0 = q.cx - q.halfW;
  const y0 = q.cy - q.halfH;
  if (!clustering) {
    // Every vehicle in the view as itself: two passes (count, then fill) keep the arrays exact.
    const hits = new Int32Array(used);
    const ux = new Float64Array(used);
    let n = 0;
    for (let s = 0; s < used; s++) {
      if (!(flags[s]! & SHOWN)) continue;
      let dx = wx[s]! - q.cx;
      if (dx > 0.5) dx -= 1;
      else if (dx < -0.5) dx += 1;
      if (dx < -q.halfW || dx > q.halfW) continue;
      const dy = wy[s]! - q.cy;
      if (dy < -q.halfH || dy > q.halfH) continue;
      hits[n] = s;
      ux[n++] = q.cx + dx;
    }
    const out = alloc(n);
    for (let i = 0; i < n; i++) {
      const s = hits[i]!;
      out.x[i] = ux[i]!;
      out.y[i] = wy[s]!;
      out.count[i] = 1;
      out.id[i] = ids[s]!;
      out.online[i] = flags[s]! & ONLINE ? 1 : 0;
    }
    out.total = n;
    return out;
  }

  // Dense grid over the view, anchored to the world grid.
  const cell = (q.cellPx ?? CELL_PX) / worldPx;
  const c0 = Math.floor(x0 / cell);
  const r0 = Math.floor(y0 / cell);
  const cols = Math.floor((q.cx + q.halfW) / cell) - c0 + 1;
  const rows = Math.floor((q.cy + q.halfH) / cell) - r0 + 1;
  const cells = cols * rows;
  const count = new Int32Array(cells);
  const online = new Int32Array(cells);
  const sx = new Float64Array(cells);
  const sy = new Float64Array(cells);
  const minId = new Int32Array(cells);
  let total = 0;
  for (let s = 0; s < used; s++) {
    const f = flags[s]!;
    if (!(f & SHOWN)) continue;
    let dx = wx[s]! - q.cx;
    if (dx > 0.5) dx -= 1;
    else if (dx < -0.5) dx += 1;
    if (dx < -q.halfW || dx > q.halfW) continue;
    const y = wy[s]!;
    const dy = y - q.cy;
    if (dy < -q.halfH || dy > q.halfH) continue;
    const x = q.cx + dx;
    const col = Math.min(cols - 1, Math.max(0, Math.floor(x / cell) - c0));
    const row = Math.min(rows - 1, Math.max(0, Math.floor(y / cell) - r0));
    const k = col * rows + row;
    const id = ids[s]!;
    if (count[k] === 0 || id < minId[k]!) minId[k] = id;
    count[k]! += 1;
    if (f & ONLINE) online[k]! += 1;
    sx[k]! += x;
    sy[k]! += y;
    total++;
  }

  // Merge close neighbours (right, below, below-left, below-right) into the first cell met.
  const merge = (q.cellPx !== undefined ? q.cellPx * (MERGE_PX / CELL_PX) : MERGE_PX) / worldPx;
  const merge2 = merge * merge;
  let n = 0;
  for (let col = 0; col < cols; col++) {
    for (let row = 0; row < rows; row++) {
      const k = col * rows + row;
      const c = count[k]!;
      if (c === 0) continue;
      n++;
      for (const [dc, dr] of NEIGHBOURS) {
        const nc = col + dc;
        const nr = row + dr;
        if (nc < 0 || nc >= cols || nr < 0 || nr >= rows) continue;
        const j = nc * rows + nr;
        const cj = count[j]!;
        if (cj === 0) continue;
        const ax = sx[k]! / count[k]!;
        const ay = sy[k]! / count[k]!;
        const bx = sx[j]! / cj;
        const by = sy[j]! / cj;
        if ((ax - bx) ** 2 + (ay - by) ** 2 > merge2) continue;
        count[k]! += cj;
        online[k]! += online[j]!;
        sx[k]! += sx[j]!;
        sy[k]! += sy[j]!;
        if (minId[j]! < minId[k]!) minId[k] = minId[j]!;
        count[j] = 0;
      }
    }
  }

  const out = alloc(n);
  let i = 0;
  for (let k = 0; k < cells; k++) {
    const c = count[k]!;
    if (c === 0) continue;
    out.x[i] = sx[k]! / c;
    out.y[i] = sy[k]! / c;
    out.count[i] = c;
    out.id[i] = minId[k]!;
    out.online[i] = online[k]!;
    i++;
  }
  out.total = total;
  return out;
}

const NEIGHBOURS: ReadonlyArray<readonly [number, number]> = [[0, 1], [1, 0], [1, 1], [1, -1]];

function alloc(n: number): ViewItems {
  return { n, x: new Float64Array(n), y: new Float64Array(n), count: new Int32Array(n), id: new Int32Array(n), online: new Int32Array(n), total: 0 };
}
