// Draws the PWA icons (a white map pin on Rastro blue) as PNGs without any image tool,
// so they can be regenerated anywhere: node scripts/make-icons.mjs
import fs from 'node:fs';
import zlib from 'node:zlib';

function crc32(buf) {
  let c, crc = 0xffffffff;
  for (let n = 0; n < buf.length; n++) {
    c = (crc ^ buf[n]) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function icon(size) {
  const blue = [11, 92, 173], white = [255, 255, 255];
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [0];
    for (let x = 0; x < size; x++) {
      // Normalised coordinates of a 64-unit canvas, like favicon.svg.
      const u = (x + 0.5) * 64 / size, v = (y + 0.5) * 64 / size;
      const head = Math.hypot(u - 32, v - 26.6) <= 17;
      const tail = v > 26.6 && v < 54 && Math.abs(u - 32) <= 17 * (54 - v) / 27.4;
      const hole = Math.hypot(u - 32, v - 27) <= 7;
      const c = (head || tail) && !hole ? white : blue;
      row.push(...c, 255);
    }
    rows.push(Buffer.from(row));
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0); ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

for (const size of [192, 512]) fs.writeFileSync(`apps/web/public/icon-${size}.png`, icon(size));
console.log('icons written');
