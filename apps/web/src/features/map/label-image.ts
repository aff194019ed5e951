// Name labels drawn into images with the 2D canvas (the map has no glyph fonts offline): dark
// text on a white rounded pill, at the screen's pixel ratio.

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
