// Reading an IO element's value bytes (1, 2, 4 or 8 of them, big-endian) as a number.
// Values are unsigned unless the element is documented as signed (temperatures, axes).

function bigUnsigned(raw: Buffer): bigint {
  let v = 0n;
  for (const b of raw) v = (v << 8n) | BigInt(b);
  return v;
}

/** The unsigned value (8-byte values above 2^53 lose precision: use `ioValue` to keep them). */
export function unsigned(raw: Buffer): number {
  if (raw.length === 0) return 0;
  return raw.length <= 6 ? raw.readUIntBE(0, raw.length) : Number(bigUnsigned(raw));
}

/** The two's-complement value. */
export function signed(raw: Buffer): number {
  if (raw.length === 0) return 0;
  if (raw.length <= 6) return raw.readIntBE(0, raw.length);
  const v = bigUnsigned(raw);
  const bits = BigInt(raw.length * 8);
  return Number(v >= 1n << (bits - 1n) ? v - (1n << bits) : v);
}

/** An unknown element as stored in `io<N>`: the number, or its decimal text when a number cannot hold it exactly. */
export function ioValue(raw: Buffer): number | string {
  if (raw.length <= 6) return unsigned(raw);
  const v = bigUnsigned(raw);
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}
