// H02 text coordinates: degrees and minutes run together (`ddmm.mmmm`, `dddmm.mmmmm`, even
// `mm.mmmm` near the meridian), the "deg-min" form some firmwares send (`-23-29.0095`), or
// the digits without a point (`ddmmmmmm`, four decimals of minutes); the sign comes from the
// hemisphere letter.

const RUN_TOGETHER = /^(\d*?)(\d{1,2}(?:\.\d+)?)$/;
const DEG_MIN = /^-(\d{1,3})-(\d{1,2}(?:\.\d+)?)$/;
const NO_POINT = /^(\d{1,3})(\d{2})(\d{4})$/;

/** Degrees of a coordinate and its hemisphere letter, or null when they are not one. */
export function parseCoordinate(text: string, hemisphere: string, positive: 'N' | 'E', negative: 'S' | 'W'): number | null {
  if (hemisphere !== positive && hemisphere !== negative) return null;
  const value = text.trim();
  if (value.length > 16) return null;
  let degrees: number;
  let minutes: number;
  const degMin = DEG_MIN.exec(value);
  const noPoint = degMin ? null : NO_POINT.exec(value);
  if (degMin) {
    degrees = Number(degMin[1]);
    minutes = Number(degMin[2]);
  } else if (noPoint) {
    degrees = Number(noPoint[1]);
    minutes = Number(`${noPoint[2]}.${noPoint[3]}`);
  } else {
    const runTogether = RUN_TOGETHER.exec(value);
    if (!runTogether) return null;
    degrees = runTogether[1] ? Number(runTogether[1]) : 0;
    minutes = Number(runTogether[2]);
  }
  if (!(minutes < 60)) return null;
  const result = degrees + minutes / 60;
  return hemisphere === negative ? -result : result;
}
