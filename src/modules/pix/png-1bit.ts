/**
 * Minimal PNG writer for 1-bit grayscale images (colour type 0, bit depth 1),
 * non-interlaced. pngjs writes 8- and 16-bit images only; a black-and-white
 * picture such as a QR code at 1 bit per pixel has 8 times less raw data to
 * filter and deflate, and its PNG is several times smaller.
 *
 * The container is the signature, then chunks of `length (4 bytes, big
 * endian) + type + data + CRC-32 over type and data`: IHDR, one IDAT holding
 * the zlib stream of the filtered rows, IEND (PNG specification, sections 5
 * and 11).
 */
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOR_TYPE_GRAY = 0;
const BIT_DEPTH = 1;

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Bytes per packed row: 1 bit per pixel, most significant bit first, padded to a byte. */
export function png1BitRowBytes(width: number): number {
  return Math.ceil(width / 8);
}

/**
 * PNG of a `width` × `height` 1-bit grayscale image (bit 1 = white, 0 = black).
 * `filtered` holds every row as a filter-type byte followed by
 * `png1BitRowBytes(width)` packed bytes, i.e. the data PNG deflates as is.
 */
export function png1BitGray(width: number, height: number, filtered: Uint8Array, deflate: zlib.ZlibOptions): Buffer {
  const rowBytes = png1BitRowBytes(width);
  if (filtered.length !== height * (rowBytes + 1)) {
    throw new Error(`PNG rows: expected ${height * (rowBytes + 1)} bytes, got ${filtered.length}`);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = BIT_DEPTH;
  ihdr[9] = COLOR_TYPE_GRAY;
  // Bytes 10-12: compression 0 (deflate), filter method 0, no interlace.
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(filtered, deflate)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
