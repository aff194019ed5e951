// Device colours (tarkan.color / tarkan.color_extra, "h|s|b": hue rotation in degrees,
// saturation and brightness factors, the CSS filter hue-rotate(h) saturate(s) brightness(b)
// applied to a base red, as the older product did with its icon layers). Computed here with
// the filter's own matrices (Filter Effects spec) so no canvas filter is needed and the result
// is testable. Without a colour the body is Rastro blue and the extra parts a light grey.

export interface Hsb {
  h: number;
  s: number;
  b: number;
}

export const BASE_TINT: readonly [number, number, number] = [214, 48, 49];
export const DEFAULT_BODY = '#2563eb';
export const DEFAULT_EXTRA = '#e2e8f0';

/** "h|s|b" → numbers, or null when absent or malformed ("|" is the canonical separator). */
export function parseHsb(value: unknown): Hsb | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const parts = value.trim().split('|').map((p) => Number(p.trim()));
  if (parts.length !== 3 || parts.some((n) => !Number.isFinite(n))) return null;
  const [h, s, b] = parts as [number, number, number];
  return { h, s: Math.max(0, s), b: Math.max(0, b) };
}

/** The colour key of a value (normalised so equal colours share one cached image). */
export const hsbKey = (hsb: Hsb | null) => (hsb ? `${round(hsb.h, 1)}|${round(hsb.s, 2)}|${round(hsb.b, 2)}` : '');

const round = (n: number, digits: number) => Number(n.toFixed(digits));
const clamp = (n: number) => Math.min(255, Math.max(0, Math.round(n)));

type Matrix = readonly [number, number, number, number, number, number, number, number, number];

function apply(m: Matrix, [r, g, b]: readonly [number, number, number]): [number, number, number] {
  return [m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b, m[6] * r + m[7] * g + m[8] * b];
}

function hueRotate(deg: number): Matrix {
  const a = (deg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [
    0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928,
    0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.14, 0.072 - c * 0.072 - s * 0.283,
    0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072,
  ];
}

function saturate(s: number): Matrix {
  return [
    0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s,
    0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s,
    0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s,
  ];
}

/** hue-rotate(h) saturate(s) brightness(b) of the base red, as #rrggbb. */
export function tint(hsb: Hsb, base: readonly [number, number, number] = BASE_TINT): string {
  let rgb = apply(hueRotate(hsb.h), base).map(clamp) as [number, number, number];
  rgb = apply(saturate(hsb.s), rgb).map(clamp) as [number, number, number];
  rgb = rgb.map((v) => clamp(v * hsb.b)) as [number, number, number];
  return `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

export function bodyColor(hsb: Hsb | null): string {
  return hsb ? tint(hsb) : DEFAULT_BODY;
}

export function extraColor(hsb: Hsb | null): string {
  return hsb ? tint(hsb) : DEFAULT_EXTRA;
}
