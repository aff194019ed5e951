// Vehicle icons for the devices layer, made on demand and kept in a 100-entry LRU cache (spec §9):
//   icon:<category>:<h|s|b>:<h|s|b> a vehicle icon (features/map-icons) in the device colours.
// Icons are rasterised with Path2D from the icons' SVG path data at 1.5× the screen's pixel
// ratio (they are drawn rotated, and the extra resolution keeps them crisp), then turned into an
// ImageBitmap for the canvas overlay (until the bitmap is ready the canvas itself is drawn).
// The categories preloaded at start-up (default, car, truck, motorcycle, bus) are drawn when the
// layer starts. An icon evicted from the cache is simply made again when a marker needs it.
import { categoryOf, FIXED_COLORS, ICON_GRID, ICONS, OUTLINE, type Category } from '../map-icons/index.ts';
import { bodyColor, extraColor, hsbKey, parseHsb } from './colors.ts';
import { LruCache } from './lru.ts';

export const IMAGE_CACHE_SIZE = 100;
export const PRELOADED: readonly Category[] = ['default', 'car', 'truck', 'motorcycle', 'bus'];
/** Icon size on screen in CSS pixels. */
export const ICON_PX = 46;

export interface RasterImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
  pixelRatio: number;
  /** What the overlay draws: the canvas, replaced by an ImageBitmap once the browser made one. */
  source?: CanvasImageSource;
}

export const iconImageId = (category: string | null | undefined, color?: unknown, extra?: unknown) =>
  `icon:${categoryOf(category)}:${hsbKey(parseHsb(color))}:${hsbKey(parseHsb(extra))}`;

/** icon:truck:155|1.5|0.8: → its parts. */
export function parseIconId(id: string): { category: Category; color: string; extra: string } | null {
  const parts = id.split(':');
  if (parts.length !== 4 || parts[0] !== 'icon') return null;
  return { category: categoryOf(parts[1]), color: parts[2]!, extra: parts[3]! };
}

const pixelRatio = () => Math.min(Math.max(window.devicePixelRatio || 1, 1), 2) * 1.5;

export function drawIcon(category: Category, color: string, extra: string, ratio = pixelRatio()): RasterImage | null {
  const size = Math.round(ICON_PX * ratio);
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  const scale = size / (ICON_GRID + 4);
  ctx.translate(2 * scale, 2 * scale);
  ctx.scale(scale, scale);
  const body = bodyColor(parseHsb(color));
  const second = extraColor(parseHsb(extra));
  const shapes = ICONS[category].map((shape) => ({ ...shape, path: new Path2D(shape.d) }));
  // A white halo with a soft shadow keeps the icon readable on any tile.
  ctx.save();
  ctx.shadowColor = 'rgba(15,23,42,0.45)';
  ctx.shadowBlur = 2.5;
  ctx.shadowOffsetY = 0.8 * scale;
  ctx.lineJoin = 'round';
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 2.6;
  for (const shape of shapes) ctx.stroke(shape.path);
  ctx.restore();
  ctx.lineJoin = 'round';
  for (const shape of shapes) {
    ctx.fillStyle = shape.role === 'body' ? body : shape.role === 'extra' ? second : FIXED_COLORS[shape.role];
    ctx.fill(shape.path);
    if (shape.role === 'body' || shape.role === 'extra') {
      ctx.strokeStyle = OUTLINE;
      ctx.lineWidth = 0.9;
      ctx.stroke(shape.path);
    }
  }
  const image = ctx.getImageData(0, 0, size, size);
  const raster: RasterImage = { width: size, height: size, data: image.data, pixelRatio: ratio, source: canvas };
  if (typeof createImageBitmap === 'function') {
    createImageBitmap(canvas).then((bitmap) => (raster.source = bitmap), () => undefined);
  }
  return raster;
}

/** Vehicle icons on request, with the LRU cache. */
export class ImageRegistry {
  readonly icons: LruCache<string, RasterImage>;

  constructor(capacity = IMAGE_CACHE_SIZE) {
    this.icons = new LruCache<string, RasterImage>(capacity, (_id, image) => {
      if (typeof ImageBitmap !== 'undefined' && image.source instanceof ImageBitmap) image.source.close();
    });
  }

  /** Draws the spec's preloaded categories (default colours) into the cache. */
  preload(): void {
    for (const category of PRELOADED) this.icon(iconImageId(category));
  }

  /** The raster of an icon id (from the cache or drawn now). */
  icon(id: string): RasterImage | null {
    const cached = this.icons.get(id);
    if (cached) return cached;
    const parts = parseIconId(id);
    if (!parts) return null;
    const image = drawIcon(parts.category, parts.color, parts.extra);
    if (image) this.icons.set(id, image);
    return image;
  }
}
