// Device colours tarkan.color / tarkan.color_extra (tarkan-reference §3.13.1, §5.5): "h|s|b",
// hue rotation in degrees, saturation and brightness as factors with two decimals, applied as
// the CSS filter hue-rotate(h) saturate(s) brightness(b) over the icon's tinted layer. The
// editor's sliders run hue 0–360°, saturation 0–300 % and brightness 0–200 %.

export interface Hsb {
  h: number;
  s: number;
  b: number;
}

/** What the product shows when a device has no colour: hue 0, saturation 0, brightness 180 %. */
export const DEFAULT_HSB: Hsb = { h: 0, s: 0, b: 1.8 };

export const HUE_RANGE = [0, 360] as const;
export const SATURATION_RANGE = [0, 3] as const;
export const BRIGHTNESS_RANGE = [0, 2] as const;

/** "h|s|b" → numbers; null when absent or malformed ("|" is the separator). */
export function parseHsb(value: unknown): Hsb | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parts = value.split('|');
  if (parts.length !== 3) return null;
  const [h, s, b] = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
  if (!Number.isFinite(h) || !Number.isFinite(s) || !Number.isFinite(b)) return null;
  return { h: h!, s: Math.max(0, s!), b: Math.max(0, b!) };
}

/** A hue in 0 ≤ h < 360 (−14 → 346). */
export const normaliseHue = (h: number): number => ((Math.round(h) % 360) + 360) % 360;

const clampTo = (n: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, n));

/** The stored form: whole-degree hue, saturation and brightness with two decimals. */
export function formatHsb(hsb: Hsb): string {
  return `${normaliseHue(hsb.h)}|${clampTo(hsb.s, SATURATION_RANGE).toFixed(2)}|${clampTo(hsb.b, BRIGHTNESS_RANGE).toFixed(2)}`;
}

/**
 * The 24 presets: seven hues, each in three saturation/brightness combinations between
 * saturation 1–2 and brightness 0.6–1, then three greys.
 */
export const COLOR_PRESETS: readonly string[] = [
  ...[13, 155, -14, -95, -165, 43, 105].flatMap((h) => [
    formatHsb({ h, s: 1, b: 1 }),
    formatHsb({ h, s: 2, b: 0.8 }),
    formatHsb({ h, s: 1.5, b: 0.6 }),
  ]),
  formatHsb({ h: 0, s: 0, b: 0.3 }),
  formatHsb({ h: 0, s: 0, b: 0.6 }),
  formatHsb({ h: 0, s: 0, b: 1.8 }),
];

type Rgb = readonly [number, number, number];
/** The red the tinted icon layers start from. */
export const TINT_BASE: Rgb = [214, 48, 49];

const channel = (n: number) => Math.min(255, Math.max(0, Math.round(n)));

/**
 * hue-rotate(h) saturate(s) brightness(b) of the base colour, as #rrggbb, using the colour
 * matrices of the Filter Effects specification (luminance weights 0.213, 0.715, 0.072).
 */
export function hsbToHex(hsb: Hsb, base: Rgb = TINT_BASE): string {
  const [lr, lg, lb] = [0.213, 0.715, 0.072];
  const rad = (hsb.h * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const [r0, g0, b0] = base;
  // Hue rotation.
  const r1 = channel(r0 * (lr + cos * (1 - lr) - sin * lr) + g0 * (lg - cos * lg - sin * lg) + b0 * (lb - cos * lb + sin * (1 - lb)));
  const g1 = channel(r0 * (lr - cos * lr + sin * 0.143) + g0 * (lg + cos * (1 - lg) + sin * 0.14) + b0 * (lb - cos * lb - sin * 0.283));
  const b1 = channel(r0 * (lr - cos * lr - sin * (1 - lr)) + g0 * (lg - cos * lg + sin * lg) + b0 * (lb + cos * (1 - lb) + sin * lb));
  // Saturation: mix with the luminance.
  const s = hsb.s;
  const grey = lr * r1 + lg * g1 + lb * b1;
  const [r2, g2, b2] = [r1, g1, b1].map((c) => channel(grey + (c - grey) * s));
  // Brightness.
  return `#${[r2!, g2!, b2!].map((c) => channel(c * hsb.b).toString(16).padStart(2, '0')).join('')}`;
}
