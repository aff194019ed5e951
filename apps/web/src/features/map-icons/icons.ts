// The map's vehicle icons, drawn for Rastro as SVG path data on a 48 × 48 grid, seen from above
// with the front pointing up (north), so rotating by the course points them where they go.
// Each shape has a role that decides its colour when the icon is rasterised:
//   body  – the device colour (tarkan.color), extra – the second colour (tarkan.color_extra),
//   dark  – tyres, rotor, chassis, glass – windows, light – roof marks and highlights.
// The same data gives a standalone SVG (toSvg) and a 2D-canvas drawing through Path2D.

export type ShapeRole = 'body' | 'extra' | 'dark' | 'glass' | 'light';

export interface IconShape {
  role: ShapeRole;
  d: string;
}

export const ICON_GRID = 48;

export const CATEGORIES = [
  'default', 'arrow', 'person', 'animal', 'bicycle', 'motorcycle', 'scooter', 'car', 'pickup', 'van', 'truck', 'truck1',
  'truck2', 'tractor', 'boat', 'ship', 'bus', 'train', 'trolleybus', 'tram', 'crane', 'plane', 'helicopter', 'offroad',
] as const;

export type Category = (typeof CATEGORIES)[number];

/** A device's category as an icon key: empty or unknown → default (spec §3). */
export function categoryOf(value: string | null | undefined): Category {
  const key = (value ?? '').trim().toLowerCase();
  return (CATEGORIES as readonly string[]).includes(key) ? (key as Category) : 'default';
}

const rect = (x: number, y: number, w: number, h: number, r = 0) =>
  r <= 0
    ? `M${x} ${y}h${w}v${h}h${-w}z`
    : `M${x + r} ${y}h${w - 2 * r}a${r} ${r} 0 0 1 ${r} ${r}v${h - 2 * r}a${r} ${r} 0 0 1 ${-r} ${r}h${-(w - 2 * r)}a${r} ${r} 0 0 1 ${-r} ${-r}v${-(h - 2 * r)}a${r} ${r} 0 0 1 ${r} ${-r}z`;
const circle = (cx: number, cy: number, r: number) => `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`;
const ellipse = (cx: number, cy: number, rx: number, ry: number) =>
  `M${cx - rx} ${cy}a${rx} ${ry} 0 1 0 ${2 * rx} 0a${rx} ${ry} 0 1 0 ${-2 * rx} 0z`;

const s = (role: ShapeRole, d: string): IconShape => ({ role, d });

/** Four wheels peeking out of a body (x of the left side, width, front and rear axle y). */
const axle = (x: number, w: number, y: number, tw = 3, th = 7) => [
  s('dark', rect(x - tw + 1, y - th / 2, tw, th, 1)),
  s('dark', rect(x + w - 1, y - th / 2, tw, th, 1)),
];
const wheels = (x: number, w: number, front: number, rear: number, tw = 3, th = 7) => [...axle(x, w, front, tw, th), ...axle(x, w, rear, tw, th)];

const car: IconShape[] = [
  ...wheels(14, 20, 14, 34),
  s('body', 'M18 5h12c3 0 5 2 5 5v28c0 3-2 5-5 5h-12c-3 0-5-2-5-5v-28c0-3 2-5 5-5z'),
  s('glass', 'M16.5 15.5c4.5-1.6 10.5-1.6 15 0l-1.5 5h-12z'),
  s('glass', 'M17.5 35l1-3h11l1 3c-4 1.2-9 1.2-13 0z'),
  s('light', rect(18, 22, 12, 9, 2)),
  s('body', 'M12 17h2v3h-2zM34 17h2v3h-2z'),
];

export const ICONS: Record<Category, IconShape[]> = {
  default: [
    s('body', circle(24, 24, 15)),
    s('light', 'M24 12.5l7.5 17-7.5-4.2-7.5 4.2z'),
  ],
  arrow: [s('body', 'M24 4l15 38-15-8.5-15 8.5z'), s('light', 'M24 12l-8 20 8-4.5z')],
  person: [
    s('body', ellipse(24, 27, 12, 7)),
    s('extra', 'M15 24c2-4 16-4 18 0l-2 7h-14z'),
    s('dark', circle(24, 23, 5.5)),
    s('body', ellipse(24, 13.5, 2.5, 2)),
  ],
  animal: [
    s('body', 'M24 25c6 0 10 5 10 10 0 4-3 6-6 6-2 0-3-1-4-1s-2 1-4 1c-3 0-6-2-6-6 0-5 4-10 10-10z'),
    s('body', ellipse(14, 22, 3.6, 4.6)),
    s('body', ellipse(34, 22, 3.6, 4.6)),
    s('body', ellipse(19.5, 13, 3.6, 4.8)),
    s('body', ellipse(28.5, 13, 3.6, 4.8)),
  ],
  bicycle: [
    s('dark', rect(22, 4, 4, 13, 2)),
    s('dark', rect(22, 31, 4, 13, 2)),
    s('body', 'M23 14h2l1 18h-4z'),
    s('body', rect(14, 13, 20, 3, 1.5)),
    s('extra', rect(21.5, 25, 5, 7, 2)),
  ],
  motorcycle: [
    s('dark', rect(21.5, 3, 5, 11, 2.5)),
    s('dark', rect(21.5, 34, 5, 11, 2.5)),
    s('dark', rect(13, 11.5, 22, 3, 1.5)),
    s('body', 'M20 14c2-2 6-2 8 0l1 10-1.5 11h-7l-1.5-11z'),
    s('extra', rect(20.5, 24, 7, 10, 3)),
    s('light', ellipse(24, 18, 2, 3)),
  ],
  scooter: [
    s('dark', rect(21.5, 3, 5, 10, 2.5)),
    s('dark', rect(21.5, 35, 5, 10, 2.5)),
    s('dark', rect(14, 10, 20, 3, 1.5)),
    s('body', 'M19 12h10l-1 8c2 2 3 5 3 9l-1 9h-12l-1-9c0-4 1-7 3-9z'),
    s('extra', rect(19.5, 27, 9, 10, 4)),
  ],
  car,
  pickup: [
    ...wheels(13, 22, 12, 35),
    s('body', 'M17 3h14c3 0 5 2 5 5v34c0 2-1 3-3 3h-18c-2 0-3-1-3-3v-34c0-3 2-5 5-5z'),
    s('glass', 'M16 12c5-1.7 11-1.7 16 0l-1.5 4.5h-13z'),
    s('light', rect(17, 17.5, 14, 6, 1.5)),
    s('dark', rect(15.5, 26, 17, 17, 1.5)),
    s('extra', rect(17, 27.5, 14, 14, 1)),
  ],
  van: [
    ...wheels(13, 22, 11, 36),
    s('body', 'M17 3h14c3 0 5 2 5 5v34c0 2-1 3-3 3h-18c-2 0-3-1-3-3v-34c0-3 2-5 5-5z'),
    s('glass', 'M16 9.5c5-1.7 11-1.7 16 0l-1.5 4.5h-13z'),
    s('light', rect(17, 17, 14, 25, 2)),
    s('body', rect(17, 24, 14, 1.5)),
    s('body', rect(17, 32, 14, 1.5)),
  ],
  truck: [
    ...wheels(13, 22, 9, 39),
    s('dark', rect(11.5, 32, 3, 6, 1)),
    s('dark', rect(33.5, 32, 3, 6, 1)),
    s('body', 'M16 2h16c2.5 0 4 1.5 4 4v8h-24v-8c0-2.5 1.5-4 4-4z'),
    s('glass', 'M15 5.5c6-1.5 12-1.5 18 0l-1 4h-16z'),
    s('extra', rect(11.5, 15, 25, 31, 1.5)),
    s('light', rect(13, 17, 22, 1.5)),
  ],
  truck1: [
    s('dark', rect(16, 14, 16, 31, 2)),
    ...axle(13, 22, 9),
    s('dark', rect(11, 29, 4, 7, 1)),
    s('dark', rect(33, 29, 4, 7, 1)),
    s('dark', rect(11, 37, 4, 7, 1)),
    s('dark', rect(33, 37, 4, 7, 1)),
    s('body', 'M16 2h16c2.5 0 4 1.5 4 4v14c0 1-1 2-2 2h-20c-1 0-2-1-2-2v-14c0-2.5 1.5-4 4-4z'),
    s('glass', 'M15 5.5c6-1.5 12-1.5 18 0l-1 4h-16z'),
    s('light', rect(15, 13, 18, 6, 1.5)),
    s('extra', circle(24, 34, 4.5)),
    s('dark', circle(24, 34, 1.6)),
  ],
  truck2: [
    ...axle(14, 20, 6, 3, 5),
    s('dark', rect(11.5, 37, 3, 7, 1)),
    s('dark', rect(33.5, 37, 3, 7, 1)),
    s('dark', rect(11.5, 29, 3, 7, 1)),
    s('dark', rect(33.5, 29, 3, 7, 1)),
    s('body', 'M17 1h14c2 0 3.5 1.5 3.5 3.5v6.5h-21v-6.5c0-2 1.5-3.5 3.5-3.5z'),
    s('glass', 'M16 3.5c5-1.2 11-1.2 16 0l-1 3h-14z'),
    s('dark', rect(22.5, 11, 3, 2)),
    s('extra', rect(12, 13, 24, 34, 1)),
    s('light', rect(13.5, 14.5, 21, 1.2)),
    s('light', rect(13.5, 30, 21, 1)),
  ],
  tractor: [
    s('dark', rect(8, 26, 7, 16, 2.5)),
    s('dark', rect(33, 26, 7, 16, 2.5)),
    s('dark', rect(13, 6, 4, 9, 1.5)),
    s('dark', rect(31, 6, 4, 9, 1.5)),
    s('body', 'M19 3h10c1 0 2 1 2 2v17h-14v-17c0-1 1-2 2-2z'),
    s('light', rect(21, 5, 6, 2, 1)),
    s('body', rect(15, 22, 18, 20, 3)),
    s('glass', rect(17, 24, 14, 4, 1)),
    s('extra', rect(17.5, 29, 13, 11, 2)),
  ],
  boat: [
    s('body', 'M24 3c7 7 11 16 11 26v13c0 2-1 3-3 3h-16c-2 0-3-1-3-3v-13c0-10 4-19 11-26z'),
    s('light', 'M24 9c4.5 5 7.5 12 7.5 20v11h-15v-11c0-8 3-15 7.5-20z'),
    s('extra', rect(18.5, 27, 11, 8, 2)),
    s('glass', 'M19 27h10l-1 3h-8z'),
  ],
  ship: [
    s('body', 'M24 1c6 5 10 12 10 20v22c0 2-1.5 4-4 4h-12c-2.5 0-4-2-4-4v-22c0-8 4-15 10-20z'),
    s('extra', rect(17, 12, 6, 6, 0.5)),
    s('extra', rect(25, 12, 6, 6, 0.5)),
    s('extra', rect(17, 19, 6, 6, 0.5)),
    s('extra', rect(25, 19, 6, 6, 0.5)),
    s('extra', rect(17, 26, 6, 6, 0.5)),
    s('extra', rect(25, 26, 6, 6, 0.5)),
    s('light', rect(16.5, 34, 15, 8, 1.5)),
    s('glass', rect(17.5, 35, 13, 2)),
  ],
  bus: [
    ...wheels(14, 20, 10, 36, 2.5, 6),
    s('body', 'M17 2h14c2.5 0 4 1.5 4 4v37c0 1.5-1 2.5-2.5 2.5h-17c-1.5 0-2.5-1-2.5-2.5v-37c0-2.5 1.5-4 4-4z'),
    s('glass', 'M15.5 5.5c5.5-1.5 11.5-1.5 17 0l-1 4h-15z'),
    s('light', rect(17, 14, 14, 5, 1.5)),
    s('light', rect(17, 23, 14, 5, 1.5)),
    s('light', rect(17, 32, 14, 5, 1.5)),
    s('glass', rect(16, 41, 16, 2)),
  ],
  train: [
    s('body', 'M24 1c5 0 9 4 9 10v33c0 1.5-1 2.5-2.5 2.5h-13c-1.5 0-2.5-1-2.5-2.5v-33c0-6 4-10 9-10z'),
    s('glass', 'M18 8c3.5-2.5 8.5-2.5 12 0l-1 4h-10z'),
    s('extra', rect(15, 16, 18, 3)),
    s('light', rect(18, 22, 12, 4, 1)),
    s('light', rect(18, 29, 12, 4, 1)),
    s('light', rect(18, 36, 12, 4, 1)),
  ],
  trolleybus: [
    s('dark', 'M18.6 14.5l4.6-13.2 1.4.5-4.6 13.2zM29.4 14.5l-4.6-13.2-1.4.5 4.6 13.2z'),
    ...wheels(14, 20, 13, 38, 2.5, 6),
    s('body', 'M17 6h14c2.5 0 4 1.5 4 4v34c0 1.2-.8 2-2 2h-18c-1.2 0-2-.8-2-2v-34c0-2.5 1.5-4 4-4z'),
    s('glass', 'M15.5 9c5.5-1.5 11.5-1.5 17 0l-1 4h-15z'),
    s('extra', rect(17, 16, 14, 4, 1)),
    s('light', rect(17, 24, 14, 5, 1.5)),
    s('light', rect(17, 33, 14, 5, 1.5)),
    s('dark', 'M19.6 14.5h1.8v2h-1.8zM26.6 14.5h1.8v2h-1.8z'),
  ],
  tram: [
    s('body', 'M20 1h8c3 0 5 3 5 6v34c0 3-2 6-5 6h-8c-3 0-5-3-5-6v-34c0-3 2-6 5-6z'),
    s('glass', 'M18 5.5c3.5-2 8.5-2 12 0l-.8 3.5h-10.4z'),
    s('glass', 'M18 42.5c3.5 2 8.5 2 12 0l-.8-3.5h-10.4z'),
    s('extra', rect(20, 21, 8, 6, 1)),
    s('dark', 'M23.3 14h1.4v20h-1.4z'),
    s('dark', 'M19 23.3h10v1.4h-10z'),
    s('light', rect(18, 12, 12, 3, 1)),
    s('light', rect(18, 33, 12, 3, 1)),
  ],
  crane: [
    ...wheels(14, 20, 28, 40, 3, 6),
    s('dark', rect(12, 33, 3, 6, 1)),
    s('dark', rect(33, 33, 3, 6, 1)),
    s('body', rect(14, 22, 20, 24, 2)),
    s('glass', rect(16, 24, 5, 4, 1)),
    s('extra', 'M21.5 1h5l1 34h-7z'),
    s('dark', 'M22.5 6h3v1.2h-3zM22.5 12h3v1.2h-3zM22.5 18h3v1.2h-3zM22.5 24h3v1.2h-3z'),
    s('light', circle(24, 35, 4)),
  ],
  plane: [
    s('body', 'M24 1c2 0 3 2 3 5v11l17 10v4l-17-5v11l5 4v3l-8-2-8 2v-3l5-4v-11l-17 5v-4l17-10v-11c0-3 1-5 3-5z'),
    s('glass', 'M22.2 6c0-2 .8-3 1.8-3s1.8 1 1.8 3z'),
    s('extra', 'M13 22.5h3v3h-3zM32 22.5h3v3h-3z'),
  ],
  helicopter: [
    s('body', 'M23 28h2l.6 15h3v2.5h-9.2v-2.5h3z'),
    s('body', ellipse(24, 19, 7, 11)),
    s('glass', 'M18.5 14c2-5 9-5 11 0l-1 3h-9z'),
    s('dark', 'M5.8 6.5l1.2-1.2 35.2 35.2-1.2 1.2z'),
    s('dark', 'M42.2 6.5l-1.2-1.2-35.2 35.2 1.2 1.2z'),
    s('extra', circle(24, 23.5, 2.6)),
  ],
  offroad: [
    s('dark', rect(10, 9, 5, 9, 2)),
    s('dark', rect(33, 9, 5, 9, 2)),
    s('dark', rect(10, 31, 5, 9, 2)),
    s('dark', rect(33, 31, 5, 9, 2)),
    s('body', 'M16 4h16c2 0 4 2 4 4v33c0 1.5-1 2.5-2.5 2.5h-19c-1.5 0-2.5-1-2.5-2.5v-33c0-2 2-4 4-4z'),
    s('glass', rect(15.5, 14, 17, 4, 1)),
    s('light', rect(15.5, 20, 17, 2)),
    s('light', rect(15.5, 27, 17, 2)),
    s('extra', circle(24, 42, 4.5)),
    s('dark', circle(24, 42, 2)),
  ],
};

/** The colours used for the roles that do not follow the device. */
export const FIXED_COLORS = { dark: '#1f2937', glass: '#334155', light: 'rgba(255,255,255,0.82)' } as const;
export const OUTLINE = 'rgba(15,23,42,0.72)';

/** A standalone SVG document of an icon in the given colours (for docs, tests and the legend). */
export function toSvg(category: Category, body: string, extra: string, size = ICON_GRID): string {
  const fill = (role: ShapeRole) => (role === 'body' ? body : role === 'extra' ? extra : FIXED_COLORS[role]);
  const paths = ICONS[category]
    .map((shape) => {
      const stroke = shape.role === 'body' || shape.role === 'extra' ? ` stroke="${OUTLINE}" stroke-width="1.2" stroke-linejoin="round"` : '';
      return `<path d="${shape.d}" fill="${fill(shape.role)}"${stroke}/>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${ICON_GRID} ${ICON_GRID}">${paths}</svg>`;
}
