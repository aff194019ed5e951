// Conversions between stored values and API JSON.

/** An instant as the API writes it (`…+00:00`); a missing one stays null. */
export function toIso(ms: number): string;
export function toIso(ms: number | null | undefined): string | null;
export function toIso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString().replace('Z', '+00:00');
}

/** Parses an ISO-8601 instant that carries an offset or Z (Traccar refuses zone-less dates). */
export function parseIsoInstant(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim())) return null;
  const ms = Date.parse(value.trim());
  return Number.isFinite(ms) ? ms : null;
}

export const toBool = (v: number | boolean | null | undefined): boolean => v === true || v === 1;
export const fromBool = (v: unknown): number => (v === true || v === 1 || v === 'true' ? 1 : 0);

export function parseAttributes(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
