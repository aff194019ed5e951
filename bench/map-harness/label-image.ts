// Bench reference only: labels and cluster counts drawn into images with the 2D canvas for the
// older MapLibre symbol layers (no glyph fonts offline): dark text on a white rounded pill, and
// white bold counts, at the screen's pixel ratio.
import type { RasterImage } from '../../apps/web/src/features/map/icon-images.ts';

export interface LabelImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
  pixelRatio: number;
}

const FONT_PX = 12;
const PAD_X = 6;
const HEIGHT = 20;
const MAX_CHARS = 32;

export function drawLabel(text: string, pixelRatio = Math.min(window.devicePixelRatio || 1, 2)): LabelImage | null {
  const label = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx || !label) return null;
  const font = `600 ${FONT_PX * pixelRatio}px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif`;
  ctx.font = font;
  const textWidth = Math.ceil(ctx.measureText(label).width);
  canvas.width = textWidth + PAD_X * 2 * pixelRatio;
  canvas.height = HEIGHT * pixelRatio;
  ctx.font = font;
  const r = 6 * pixelRatio;
  ctx.fillStyle = 'rgba(255,255,255,0.94)';
  ctx.strokeStyle = 'rgba(15,23,42,0.35)';
  ctx.lineWidth = pixelRatio;
  ctx.beginPath();
  ctx.roundRect(0.5 * pixelRatio, 0.5 * pixelRatio, canvas.width - pixelRatio, canvas.height - pixelRatio, r);
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = '#0f172a';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, PAD_X * pixelRatio, canvas.height / 2 + 0.5 * pixelRatio);
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  return { width: image.width, height: image.height, data: image.data, pixelRatio };
}

/** The image id of a label (drawn on demand by the map). */
export const labelImageId = (text: string) => `label:${text}`;

/** A cluster count in white bold text (the circle itself is a circle layer). */
export function drawCount(text: string, ratio = Math.min(window.devicePixelRatio || 1, 2)): RasterImage | null {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  const font = `700 ${12 * ratio}px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif`;
  ctx.font = font;
  canvas.width = Math.ceil(ctx.measureText(text).width + 4 * ratio);
  canvas.height = Math.ceil(16 * ratio);
  ctx.font = font;
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.shadowColor = 'rgba(0,0,0,0.35)';
  ctx.shadowBlur = 2 * ratio;
  ctx.fillText(text, canvas.width / 2, canvas.height / 2 + ratio * 0.5);
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  return { width: image.width, height: image.height, data: image.data, pixelRatio: ratio };
}
