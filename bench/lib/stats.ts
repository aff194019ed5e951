// Small helpers for benchmark figures.

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summary(values: number[]): { n: number; p50: number; p95: number; p99: number; max: number } {
  const sorted = Float64Array.from(values).sort();
  const arr = Array.from(sorted);
  return { n: arr.length, p50: percentile(arr, 50), p95: percentile(arr, 95), p99: percentile(arr, 99), max: arr.at(-1) ?? Number.NaN };
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

export const fmt = (v: number, digits = 1): string => (Number.isFinite(v) ? v.toFixed(digits) : '-');
