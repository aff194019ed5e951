// The map benchmark's page (bench/map.ts builds it with Vite and opens it in headless Chromium).
// ?strategy=rastro|setdata|leaflet&n=N&ws=<url>&devices=<url>
//   rastro   the product path: api/socket.ts → live store (applyPositions, in place) →
//            subscribePositions → features/map DeviceLayer (vehicle worker clusters the view,
//            canvas overlay drawn per animation frame) over the product's base style;
//   setdata  the same socket and store, but every message rebuilds the whole FeatureCollection
//            and calls setData on a clustered MapLibre source with the previous design's layers
//            (reference-style.ts; reference b);
//   leaflet  one L.marker (DOM divIcon) per vehicle, setLatLng per position (reference a).
// Instrumentation: the first position of every socket message is sampled with its receive time;
// window.__bench.latencies collects receive → drawn in ms. "Drawn" is measured the same way for
// all three: the animation frame after the one whose drawing included the position (Rastro: the
// layer's probe, rAF after the canvas frame; setdata: first MapLibre render after the worker
// processed the data, which is itself inside MapLibre's animation frame; Leaflet: the second rAF
// after the DOM update, i.e. the rAF after the frame that painted it).
import { Map as MapLibre, setWorkerUrl, type GeoJSONSource } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import 'leaflet/dist/leaflet.css';
import type { Device, Position, SocketMessage } from '@rastro/domain/entities';
import { connectSocket } from '../../apps/web/src/api/socket.ts';
import { applyPositions, setLoaded, subscribePositions, useLive } from '../../apps/web/src/live/live-store.ts';
import { baseStyle } from '../../apps/web/src/features/map/base-style.ts';
import { DeviceLayer, type LiveFeed } from '../../apps/web/src/features/map/device-layer.ts';
import { markerOf } from '../../apps/web/src/features/map/device-features.ts';
import { toFeature } from './reference-features.ts';
import { addReferenceLayers, DEVICES_SOURCE } from './reference-style.ts';

setWorkerUrl(workerUrl);

const params = new URLSearchParams(location.search);
const strategy = params.get('strategy') ?? 'rastro';
const wsUrl = params.get('ws')!;
const BOX: [[number, number], [number, number]] = [[-5, 42], [15, 54]];

interface BenchState {
  ready: boolean;
  error: string | null;
  received: Map<number, number>;
  latencies: number[];
  frames: number;
  measuring: boolean;
  messages: number;
  renders: number;
  updates: number;
  start(): void;
  stop(): void;
}

const bench: BenchState = {
  ready: false,
  error: null,
  received: new Map(),
  latencies: [],
  frames: 0,
  measuring: false,
  messages: 0,
  renders: 0,
  updates: 0,
  start() {
    this.renders = 0;
    this.updates = 0;
    this.latencies = [];
    this.received.clear();
    this.frames = 0;
    this.messages = 0;
    this.measuring = true;
  },
  stop() {
    this.measuring = false;
  },
};
(window as unknown as { __bench: BenchState }).__bench = bench;
window.addEventListener('error', (e) => (bench.error ??= String(e.message)));

const countFrames = () => {
  if (bench.measuring) bench.frames++;
  requestAnimationFrame(countFrames);
};
requestAnimationFrame(countFrames);

/** The first position id of a message text, read without parsing it twice. */
const FIRST_ID = /"id":(\d+)/;

/** Receive timestamps, before anything else sees the message. */
class TimedWebSocket extends WebSocket {
  set onmessage(handler: ((ev: MessageEvent) => void) | null) {
    super.onmessage = handler
      ? (ev: MessageEvent) => {
          if (bench.measuring) {
            bench.messages++;
            const m = FIRST_ID.exec(typeof ev.data === 'string' ? ev.data.slice(0, 200) : '');
            if (m) bench.received.set(Number(m[1]), performance.now());
          }
          handler(ev);
        }
      : null;
  }
  get onmessage() {
    return super.onmessage as ((ev: MessageEvent) => void) | null;
  }
}

function drawn(positionIds: readonly number[], at: number): void {
  if (!bench.measuring) return;
  for (const id of positionIds) {
    const t = bench.received.get(id);
    if (t !== undefined) {
      bench.received.delete(id);
      bench.latencies.push(at - t);
    }
  }
}

async function loadDevices(): Promise<{ devices: Device[]; positions: Position[] }> {
  const res = await fetch(params.get('devices')!);
  return (await res.json()) as { devices: Device[]; positions: Position[] };
}

function newMap(reference: boolean): Promise<MapLibre> {
  const map = new MapLibre({
    container: 'map',
    style: baseStyle('http://127.0.0.1:9/{z}/{x}/{y}.png'),
    bounds: BOX,
    fadeDuration: 0,
    attributionControl: false,
  });
  map.on('error', (e) => {
    const message = String((e as { error?: Error }).error?.message ?? e);
    if (!/127\.0\.0\.1:9/.test(message)) (bench as { mapErrors?: string[] }).mapErrors = [...((bench as { mapErrors?: string[] }).mapErrors ?? []), message].slice(-5);
  });
  return new Promise((resolve) =>
    map.once('load', () => {
      map.setLayoutProperty('osm', 'visibility', 'none');
      if (reference) addReferenceLayers(map);
      resolve(map);
    }),
  );
}

async function rastro(): Promise<void> {
  const { devices, positions } = await loadDevices();
  const map = await newMap(false);
  // The same feed as features/map/map-view.tsx.
  const feed: LiveFeed = {
    devices: () => useLive.getState().devices,
    positions: () => useLive.getState().positions,
    subscribe: (listener) => useLive.subscribe((s, prev) => {
      if (s.devices !== prev.devices || s.positions !== prev.positions) listener(s.devices !== prev.devices, s.positions !== prev.positions);
    }),
    subscribePositions,
  };
  const layer = new DeviceLayer(map, feed, null);
  layer.probe = {
    drawn: (ids, _applied, at) => {
      if (bench.measuring) bench.updates++;
      drawn(ids, at);
    },
  };
  map.on('render', () => bench.measuring && bench.renders++);
  (window as unknown as { __layer: unknown }).__layer = layer;
  // Canvas frames of the vehicle layer during the measured window.
  let framesAtStart = 0;
  const start = bench.start.bind(bench);
  bench.start = () => {
    framesAtStart = layer.frames;
    start();
  };
  Object.defineProperty(bench, 'canvasFrames', { get: () => layer.frames - framesAtStart });
  setLoaded(devices, positions);
  await new Promise<void>((resolve) => map.once('idle', () => resolve()));
  await layer.settled();
  if (params.has('quiet')) return;
  connectSocket({ url: wsUrl, WebSocketImpl: TimedWebSocket, onMessage: (m: SocketMessage) => Array.isArray(m.positions) && applyPositions(m.positions) });
}

async function setdata(): Promise<void> {
  const { devices, positions } = await loadDevices();
  const map = await newMap(true);
  setLoaded(devices, positions);
  const source = map.getSource<GeoJSONSource>(DEVICES_SOURCE)!;
  map.on('render', () => bench.measuring && bench.renders++);
  let tileLoads = 0;
  map.on('sourcedata', (e) => {
    if ((e as { sourceId?: string }).sourceId === DEVICES_SOURCE && (e as { tile?: unknown }).tile) tileLoads++;
  });
  let waiting: Array<{ ids: number[]; tiles: number; done: boolean }> = [];
  map.on('render', () => {
    if (!map.isSourceLoaded(DEVICES_SOURCE)) return;
    const now = performance.now();
    waiting = waiting.filter((w) => (w.done && tileLoads > w.tiles ? (drawn(w.ids, now), false) : true));
  });
  map.on('idle', () => {
    const now = performance.now();
    waiting = waiting.filter((w) => (w.done ? (drawn(w.ids, now), false) : true));
  });
  const rebuild = (ids: number[]) => {
    const s = useLive.getState();
    const features = [];
    for (const key in s.devices) {
      const m = markerOf(s.devices[key], s.positions[key]);
      if (m) features.push(toFeature(m));
    }
    const w = { ids, tiles: tileLoads, done: false };
    waiting.push(w);
    void source.setData({ type: 'FeatureCollection', features } as never).then(() => (w.done = true));
  };
  rebuild([]);
  await new Promise<void>((resolve) => map.once('idle', () => resolve()));
  connectSocket({
    url: wsUrl,
    WebSocketImpl: TimedWebSocket,
    onMessage: (m: SocketMessage) => {
      if (!Array.isArray(m.positions)) return;
      applyPositions(m.positions);
      rebuild(m.positions.length ? [m.positions[0]!.id] : []);
    },
  });
}

async function leaflet(): Promise<void> {
  const L = (await import('leaflet')).default;
  const { devices, positions } = await loadDevices();
  const map = L.map('map', { zoomControl: false, attributionControl: false }).fitBounds([[BOX[0][1], BOX[0][0]], [BOX[1][1], BOX[1][0]]]);
  const byId = new Map(devices.map((d) => [d.id, d]));
  const markers = new Map<number, ReturnType<typeof L.marker>>();
  const group = L.layerGroup();
  for (const p of positions) {
    const d = byId.get(p.deviceId);
    if (!d) continue;
    const icon = L.divIcon({ className: '', html: `<div style="width:0;height:0;border-left:6px solid transparent;border-right:6px solid transparent;border-bottom:16px solid #2563eb;transform:rotate(${p.course}deg)"></div>`, iconSize: [12, 16] });
    markers.set(p.deviceId, L.marker([p.latitude, p.longitude], { icon }));
  }
  for (const m of markers.values()) group.addLayer(m);
  group.addTo(map);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  connectSocket({
    url: wsUrl,
    WebSocketImpl: TimedWebSocket,
    onMessage: (msg: SocketMessage) => {
      if (!Array.isArray(msg.positions)) return;
      for (const p of msg.positions) {
        const m = markers.get(p.deviceId);
        if (!m) continue;
        m.setLatLng([p.latitude, p.longitude]);
        const el = m.getElement()?.firstChild as HTMLElement | null;
        if (el) el.style.transform = `rotate(${p.course}deg)`;
      }
      const ids = msg.positions.length ? [msg.positions[0]!.id] : [];
      requestAnimationFrame(() => requestAnimationFrame(() => drawn(ids, performance.now())));
    },
  });
}

/** Diagnostics (--strategies socket): the socket and the store only, nothing drawn: the floor every strategy pays. */
async function socketOnly(): Promise<void> {
  const { devices, positions } = await loadDevices();
  setLoaded(devices, positions);
  const store = params.get('store') !== '0';
  connectSocket({ url: wsUrl, WebSocketImpl: TimedWebSocket, onMessage: (m: SocketMessage) => {
    if (!Array.isArray(m.positions)) return;
    if (store) applyPositions(m.positions);
    const ids = m.positions.length ? [m.positions[0]!.id] : [];
    requestAnimationFrame(() => requestAnimationFrame(() => drawn(ids, performance.now())));
  } });
}

const run = strategy === 'leaflet' ? leaflet : strategy === 'setdata' ? setdata : strategy === 'socket' ? socketOnly : rastro;
run().then(
  () => (bench.ready = true),
  (e: unknown) => (bench.error = String(e instanceof Error ? e.stack : e)),
);
