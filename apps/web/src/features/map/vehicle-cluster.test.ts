import { describe, expect, it } from 'vitest';
import { abbreviate, labelOf } from './device-layer.ts';
import { CELL_PX, latToY, lonToX, ONLINE, SHOWN, TILE_PX, VehicleIndex, xToLon, yToLat, type ViewQuery } from './vehicle-cluster.ts';
import { localChannel, type FromWorker } from './vehicle-protocol.ts';

/** A view of w×h screen pixels centred on lon/lat at zoom z (no margin). */
function view(lon: number, lat: number, zoom: number, extra: Partial<ViewQuery> = {}, w = 1280, h = 800): ViewQuery {
  const worldPx = TILE_PX * 2 ** zoom;
  return { cx: lonToX(lon), cy: latToY(lat), halfW: w / 2 / worldPx, halfH: h / 2 / worldPx, zoom, cluster: true, clusterMaxZoom: 14, ...extra };
}

function load(points: Array<[id: number, lon: number, lat: number, flags?: number]>): VehicleIndex {
  const index = new VehicleIndex();
  index.upsert(points.map((p) => p[0]), points.map((p) => lonToX(p[1])), points.map((p) => latToY(p[2])), points.map((p) => p[3] ?? SHOWN | ONLINE));
  return index;
}

const sum = (a: Int32Array) => a.reduce((s, v) => s + v, 0);

describe('web mercator', () => {
  it('round-trips lon/lat through world coordinates', () => {
    expect(lonToX(-180)).toBe(0);
    expect(lonToX(0)).toBe(0.5);
    expect(latToY(0)).toBeCloseTo(0.5, 12);
    expect(xToLon(lonToX(-46.63))).toBeCloseTo(-46.63, 9);
    expect(yToLat(latToY(-23.55))).toBeCloseTo(-23.55, 9);
    expect(latToY(60)).toBeLessThan(latToY(10));
  });
});

describe('vehicle clustering (grid over the view, in the worker)', () => {
  it('groups nearby vehicles; the counts add up to the vehicles in view; online counts follow', () => {
    const points: Array<[number, number, number, number]> = [];
    for (let i = 0; i < 40; i++) points.push([i + 1, -38.5 + (i % 8) * 0.0006, -12.97 + Math.floor(i / 8) * 0.0006, SHOWN | (i % 4 ? ONLINE : 0)]);
    const items = load(points).query(view(-38.498, -12.968, 11));
    expect(items.total).toBe(40);
    expect(sum(items.count)).toBe(40);
    expect(items.n).toBeLessThan(5);
    expect(sum(items.online)).toBe(30);
    // A cluster's key is its smallest member id.
    expect([...items.id]).toContain(1);
  });

  it('shows every vehicle alone above clusterMaxZoom or with clustering off', () => {
    const index = load([[1, 10, 10], [2, 10.00001, 10.00001], [3, 10.00002, 10]]);
    for (const q of [view(10, 10, 15), view(10, 10, 8, { cluster: false })]) {
      const items = index.query(q);
      expect(items.n).toBe(3);
      expect([...items.count]).toEqual([1, 1, 1]);
      expect([...items.id].sort()).toEqual([1, 2, 3]);
    }
    // Clustered at 14 (the zoom MapLibre's clusterMaxZoom 14 still clusters).
    expect(index.query(view(10, 10, 14)).n).toBe(1);
  });

  it('a single vehicle keeps its exact point', () => {
    const items = load([[7, -46.6, -23.5]]).query(view(-46.6, -23.5, 5));
    expect(items.n).toBe(1);
    expect(items.count[0]).toBe(1);
    expect(items.id[0]).toBe(7);
    expect(items.x[0]).toBe(lonToX(-46.6));
    expect(items.y[0]).toBe(latToY(-23.5));
  });

  it('leaves out vehicles outside the view and hidden ones (list filters)', () => {
    const index = load([[1, 0, 0], [2, 50, 0], [3, 0.0001, 0, 0]]);
    const items = index.query(view(0, 0, 10));
    expect(items.total).toBe(1);
    expect([...items.id]).toEqual([1]);
    index.upsert([3], [lonToX(0.0001)], [latToY(0)], [SHOWN]);
    expect(index.query(view(0, 0, 10)).total).toBe(2);
    index.remove([1, 3]);
    expect(index.query(view(0, 0, 10)).total).toBe(0);
    expect(index.size).toBe(1);
  });

  it('keeps clusters in place while the view pans (the grid belongs to the world)', () => {
    const points: Array<[number, number, number]> = [];
    for (let i = 0; i < 500; i++) points.push([i + 1, 5 + ((i * 7919) % 1000) / 1000, 45 + ((i * 104729) % 1000) / 1000]);
    const index = load(points);
    const a = index.query(view(5.5, 45.5, 8));
    const b = index.query(view(5.5 + 0.05, 45.5 - 0.03, 8));
    expect(a.total).toBe(500);
    expect(b.total).toBe(500);
    const key = (items: typeof a) => new Set([...items.id].map((id, i) => `${id}:${items.count[i]}`));
    expect(key(b)).toEqual(key(a));
  });

  it('sees vehicles across the antimeridian', () => {
    const items = load([[1, 179.99, 0], [2, -179.99, 0]]).query(view(180, 0, 12, { cluster: false }));
    expect(items.n).toBe(2);
    // Unwrapped towards the view: both sit next to x = 1.
    for (const x of items.x) expect(Math.abs(x - 1)).toBeLessThan(1e-4);
  });

  it('no two clusters closer than a cell', () => {
    const points: Array<[number, number, number]> = [];
    for (let i = 0; i < 5000; i++) points.push([i + 1, -5 + ((i * 7919) % 10007) / 500, 42 + ((i * 104729) % 10007) / 834]);
    const q = view(5, 48, 5.2);
    const items = load(points).query(q);
    const worldPx = TILE_PX * 2 ** q.zoom;
    let closest = Infinity;
    for (let i = 0; i < items.n; i++) {
      for (let j = i + 1; j < items.n; j++) {
        closest = Math.min(closest, Math.hypot(items.x[i]! - items.x[j]!, items.y[i]! - items.y[j]!) * worldPx);
      }
    }
    expect(closest).toBeGreaterThan(CELL_PX / 6);
    expect(sum(items.count)).toBe(items.total);
  });

  it('is O(fleet): 50,000 vehicles in well under 100 ms per pass', () => {
    const n = 50_000;
    const ids = new Int32Array(n);
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    const flags = new Uint8Array(n).fill(SHOWN | ONLINE);
    for (let i = 0; i < n; i++) {
      ids[i] = i + 1;
      xs[i] = lonToX(-5 + ((i * 7919) % 100_003) / 5000);
      ys[i] = latToY(42 + ((i * 104_729) % 100_003) / 8334);
    }
    const index = new VehicleIndex();
    index.upsert(ids, xs, ys, flags);
    const q = view(5, 48, 4.8);
    index.query(q);
    const t0 = performance.now();
    const items = index.query(q);
    const ms = performance.now() - t0;
    expect(items.total).toBe(n);
    expect(sum(items.count)).toBe(n);
    expect(items.n).toBeLessThan(1000);
    expect(ms).toBeLessThan(100);
  });
});

describe('vehicle channel (the worker protocol, in-thread)', () => {
  it('answers a view with the items and the last update it saw', async () => {
    const channel = localChannel();
    const answers: FromWorker[] = [];
    channel.onItems = (m) => answers.push(m);
    channel.post({ type: 'view', viewSeq: 1, view: view(0, 0, 16) });
    channel.post({ type: 'update', seq: 1, ids: Int32Array.of(4), x: Float64Array.of(lonToX(0)), y: Float64Array.of(latToY(0)), flags: Uint8Array.of(SHOWN) });
    channel.post({ type: 'update', seq: 2, ids: Int32Array.of(5), x: Float64Array.of(lonToX(0.0001)), y: Float64Array.of(latToY(0)), flags: Uint8Array.of(SHOWN) });
    await new Promise((r) => setTimeout(r, 5));
    // One pass for the burst.
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ seq: 2, viewSeq: 1 });
    expect([...answers[0]!.items.id].sort()).toEqual([4, 5]);
    channel.terminate();
  });
});

describe('labels and counts', () => {
  it('follows the name/plate preferences (N/A without a plate)', () => {
    const m = { name: 'Car 1', plate: 'ABC1D23' };
    expect(labelOf(m, { name: false, plate: false })).toBe('');
    expect(labelOf(m, { name: true, plate: false })).toBe('Car 1');
    expect(labelOf(m, { name: false, plate: true })).toBe('ABC1D23');
    expect(labelOf(m, { name: true, plate: true })).toBe('Car 1 - ABC1D23');
    expect(labelOf({ name: 'X', plate: '' }, { name: false, plate: true })).toBe('N/A');
    expect(labelOf({ name: 'a'.repeat(40), plate: '' }, { name: true, plate: false })).toHaveLength(32);
  });

  it('abbreviates cluster counts', () => {
    expect(abbreviate(999)).toBe('999');
    expect(abbreviate(1234)).toBe('1.2k');
    expect(abbreviate(15_400)).toBe('15k');
  });
});

describe('redraw only when the picture changes', () => {
  it('treats answers within half a pixel as the same picture', async () => {
    const { sameLook } = await import('./device-layer.ts');
    const index = load([[1, 5, 45], [2, 5.00001, 45], [3, 8, 46]]);
    const q = view(6, 45.5, 5);
    const worldPx = TILE_PX * 2 ** q.zoom;
    const a = index.query(q);
    index.upsert([1], [lonToX(5) + 0.2 / worldPx], [latToY(45)], [SHOWN | ONLINE]);
    expect(sameLook(a, index.query(q), worldPx)).toBe(true);
    index.upsert([3], [lonToX(8) + 3 / worldPx], [latToY(46)], [SHOWN | ONLINE]);
    expect(sameLook(a, index.query(q), worldPx)).toBe(false);
    index.upsert([3], [lonToX(8)], [latToY(46)], [SHOWN]);
    expect(sameLook(a, index.query(q), worldPx)).toBe(false);
  });
});
