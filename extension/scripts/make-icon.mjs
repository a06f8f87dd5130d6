// Writes the extension's Marketplace icon, extension/media/icon.png (256×256 RGBA): a padlock on a
// rounded square, drawn with signed distances and 4×4 supersampling, encoded with node:zlib only, so
// the icon is rebuilt from this file with no image tool. Usage: node extension/scripts/make-icon.mjs
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 256;
const SAMPLES = 4;
const BACKGROUND = [0x1f, 0x2a, 0x37];
const BODY = [0xf2, 0xb1, 0x34];
const SHACKLE = [0xd8, 0xde, 0xe6];
const KEYHOLE = [0x1f, 0x2a, 0x37];

/** Signed distance to a rounded rectangle centred at (cx, cy) with half-sizes (hx, hy) and radius r. */
function roundedBox(x, y, cx, cy, hx, hy, r) {
  const qx = Math.abs(x - cx) - hx + r;
  const qy = Math.abs(y - cy) - hy + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** The colour at a point, or null outside the icon. Later shapes paint over earlier ones. */
function colourAt(x, y) {
  let colour = null;
  if (roundedBox(x, y, 128, 128, 124, 124, 44) <= 0) colour = BACKGROUND;
  // Shackle: a ring's upper half (outer radius 54, inner 34) above the body, with straight legs.
  const ring = Math.abs(Math.hypot(x - 128, y - 108) - 44) - 10;
  const legs = Math.min(roundedBox(x, y, 84, 124, 10, 20, 0), roundedBox(x, y, 172, 124, 10, 20, 0));
  if ((y <= 108 && ring <= 0) || legs <= 0) colour = SHACKLE;
  if (roundedBox(x, y, 128, 168, 72, 56, 16) <= 0) colour = BODY;
  // Keyhole: a disc and a slot below it.
  if (Math.hypot(x - 128, y - 158) <= 15 || roundedBox(x, y, 128, 184, 6, 22, 4) <= 0) colour = KEYHOLE;
  return colour;
}

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const rows = Buffer.alloc(SIZE * (1 + SIZE * 4));
for (let y = 0; y < SIZE; y += 1) {
  const row = y * (1 + SIZE * 4);
  rows[row] = 0; // filter: none
  for (let x = 0; x < SIZE; x += 1) {
    const sum = [0, 0, 0, 0];
    for (let sy = 0; sy < SAMPLES; sy += 1) {
      for (let sx = 0; sx < SAMPLES; sx += 1) {
        const colour = colourAt(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
        if (colour === null) continue;
        sum[0] += colour[0];
        sum[1] += colour[1];
        sum[2] += colour[2];
        sum[3] += 255;
      }
    }
    const covered = sum[3] / 255;
    const offset = row + 1 + x * 4;
    for (let channel = 0; channel < 3; channel += 1) rows[offset + channel] = covered === 0 ? 0 : Math.round(sum[channel] / covered);
    rows[offset + 3] = Math.round(sum[3] / (SAMPLES * SAMPLES));
  }
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // colour type: RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(rows, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const output = path.join(path.dirname(fileURLToPath(import.meta.url)), '../media/icon.png');
writeFileSync(output, png);
console.log(`${path.relative(process.cwd(), output)}: ${SIZE}×${SIZE}, ${png.length} bytes`);
