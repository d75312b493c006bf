/**
 * The QR module matrix of a BR Code at error correction level M with mask
 * pattern 2 (see qr-image.ts for both choices), the data path specialised for
 * a Pix sale's hot path.
 *
 * `qrcode`'s `create` spends 77-84 µs on a 189-character BR Code (2-core
 * Xeon) largely on what is the same for every code of a version: it rebuilds
 * the matrix and its function patterns and the Reed-Solomon generator
 * polynomial (by polynomial multiplication, with array slices in the
 * division), and walks the zigzag placement module by module through
 * `isReserved`/`set`. uqr (256 µs) and @paulmillr/qr (663 µs, and no mixed
 * segments, so a larger version) measured slower. Here, once per version,
 * `qrcode` itself draws the function patterns, format and version
 * information (a template), and the module indices of the zigzag placement
 * are listed with their mask bit; per code, only the data bits are written,
 * the error correction divided with a table of the generator's products and
 * the bits dropped into the listed modules: 25-36 µs.
 *
 * `qrcode` stays the reference: qr-matrix.test.ts checks that this matrix is
 * module for module the one `QRCode.create` makes from the same segments, for
 * every version from 1 to 40.
 */
import QRCode from 'qrcode';

export type QrSegment = { mode: 'numeric' | 'alphanumeric'; data: string } | { mode: 'byte'; data: Uint8Array };

export interface QrMatrix {
  /** Modules per side. */
  size: number;
  /** Row by row, 1 = dark. */
  data: Uint8Array;
}

const MODE_INDICATOR = { numeric: 0b0001, alphanumeric: 0b0010, byte: 0b0100 } as const;
/** Width of the character count, by mode and version range 1-9, 10-26, 27-40 (ISO/IEC 18004 Table 3). */
const COUNT_BITS = { numeric: [10, 12, 14], alphanumeric: [9, 11, 13], byte: [8, 16, 16] } as const;
const countBits = (mode: QrSegment['mode'], version: number): number => COUNT_BITS[mode][version <= 9 ? 0 : version <= 26 ? 1 : 2]!;

/** Level M, versions 1 to 40 (ISO/IEC 18004 Table 9): error correction codewords per block… */
const EC_PER_BLOCK = [
  10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
  26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];
/** …and blocks. */
const BLOCKS = [
  1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
  17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
];
const MAX_VERSION = 40;
const MASK_PATTERN = 2;
/** Mask pattern 2 darkens the modules of every third column, counted from 0. */
const masked = (column: number): number => (column % 3 === 0 ? 1 : 0);
const PAD_BYTES = [0xec, 0x11];

/** The QR alphanumeric value of each of its 45 characters, by character code (255: not one of them). */
const ALPHANUMERIC_VALUE = new Uint8Array(128).fill(255);
[...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:'].forEach((c, value) => (ALPHANUMERIC_VALUE[c.charCodeAt(0)] = value));

/** Whether the character code is one of QR alphanumeric mode's 45 characters. */
export const isQrAlphanumeric = (code: number): boolean => (ALPHANUMERIC_VALUE[code] ?? 255) !== 255;

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1: EXP doubled so that a sum of two logs needs no modulo.
const EXP = new Uint8Array(510);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++, x = x & 0x80 ? ((x << 1) ^ 0x11d) : x << 1) {
  EXP[i] = EXP[i + 255] = x;
  LOG[x] = i;
}

/**
 * By degree: the products of the generator polynomial ∏ (x - α^i), i < degree, after its leading 1, with every
 * byte: row f (degree bytes from f · degree) is f times the generator, so a division step is one XOR of a row.
 */
const generatorProducts = new Map<number, Uint8Array>();
function generatorProductsOf(degree: number): Uint8Array {
  let products = generatorProducts.get(degree);
  if (!products) {
    let poly = [1];
    for (let i = 0; i < degree; i++) {
      const next = new Array<number>(poly.length + 1).fill(0);
      poly.forEach((c, j) => {
        next[j]! ^= c;
        if (c !== 0) next[j + 1]! ^= EXP[LOG[c]! + i]!;
      });
      poly = next;
    }
    // Every coefficient of this polynomial is non-zero, so each has a log.
    const logs = poly.slice(1).map((c) => LOG[c]!);
    products = new Uint8Array(256 * degree);
    for (let f = 1; f < 256; f++) logs.forEach((log, j) => (products![f * degree + j] = EXP[log + LOG[f]!]!));
    generatorProducts.set(degree, products);
  }
  return products;
}

/** The error correction codewords of one block: the remainder of block · x^degree divided by the generator (long division in place). */
function errorCorrection(block: Uint8Array, degree: number): Uint8Array {
  const products = generatorProductsOf(degree);
  const work = new Uint8Array(block.length + degree);
  work.set(block);
  for (let i = 0; i < block.length; i++) {
    const row = work[i]! * degree;
    for (let j = 0; j < degree; j++) work[i + 1 + j]! ^= products[row + j]!;
  }
  return work.subarray(block.length);
}

/** A version's matrix without data, and where its data bits go. */
interface Template {
  size: number;
  /** Function patterns, format and version information drawn; data modules light. */
  modules: Uint8Array;
  /** Module indices in placement order (the zigzag of ISO/IEC 18004 7.7.3), every data module once. */
  placement: Uint32Array;
  /** The mask bit of each module of `placement`. */
  mask: Uint8Array;
  dataCodewords: number;
}

const templates: Template[] = [];
function templateOf(version: number): Template {
  let template = templates[version];
  if (template) return template;
  // Any one-byte input drawn at this version: its reserved modules are the function patterns and information.
  const { modules } = QRCode.create([{ mode: 'byte', data: new Uint8Array([0]) }], { version, errorCorrectionLevel: 'M', maskPattern: MASK_PATTERN });
  const { size, reservedBit } = modules;
  const data = Uint8Array.from(modules.data, (dark, i) => (reservedBit[i] ? dark : 0));
  const placement: number[] = [];
  // Two columns at a time from the right, up then down; column 6 is the vertical timing pattern.
  for (let right = size - 1, upward = true; right > 0; right -= 2, upward = !upward) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      const row = upward ? size - 1 - step : step;
      for (const column of [right, right - 1]) if (!reservedBit[row * size + column]) placement.push(row * size + column);
    }
  }
  const totalCodewords = Math.floor(placement.length / 8);
  template = {
    size,
    modules: data,
    placement: Uint32Array.from(placement),
    mask: Uint8Array.from(placement, (index) => masked(index % size)),
    dataCodewords: totalCodewords - EC_PER_BLOCK[version - 1]! * BLOCKS[version - 1]!,
  };
  templates[version] = template;
  return template;
}

/** Bits of a segment after its mode and count. */
function payloadBits(segment: QrSegment): number {
  const n = segment.data.length;
  if (segment.mode === 'numeric') return 10 * Math.floor(n / 3) + [0, 4, 7][n % 3]!;
  if (segment.mode === 'alphanumeric') return 11 * Math.floor(n / 2) + 6 * (n % 2);
  return 8 * n;
}

/** Writes bits most significant first, a byte at a time: `pending` holds the bits not yet a whole byte. */
class BitWriter {
  length = 0;
  private pending = 0;
  private pendingBits = 0;
  constructor(readonly bytes: Uint8Array) {}
  /** `bits` is at most 16, so pending (at most 7 bits) and value fit in 32 bits. */
  put(value: number, bits: number): void {
    this.pending = (this.pending << bits) | value;
    this.pendingBits += bits;
    this.length += bits;
    while (this.pendingBits >= 8) {
      this.pendingBits -= 8;
      this.bytes[(this.length - this.pendingBits - 8) >>> 3] = this.pending >>> this.pendingBits;
      this.pending &= (1 << this.pendingBits) - 1;
    }
  }
  /** Writes the last bits, zero-padded to a byte. */
  flush(): void {
    if (this.pendingBits > 0) this.bytes[this.length >>> 3] = this.pending << (8 - this.pendingBits);
  }
}

function writeSegment(out: BitWriter, segment: QrSegment, version: number): void {
  out.put(MODE_INDICATOR[segment.mode], 4);
  out.put(segment.data.length, countBits(segment.mode, version));
  if (segment.mode === 'byte') {
    for (const byte of segment.data) out.put(byte, 8);
  } else if (segment.mode === 'numeric') {
    const digits = segment.data;
    for (let i = 0; i < digits.length; i += 3) {
      const group = digits.slice(i, i + 3);
      out.put(Number(group), [0, 4, 7, 10][group.length]!);
    }
  } else {
    const text = segment.data;
    const value = (at: number): number => {
      const v = ALPHANUMERIC_VALUE[text.charCodeAt(at)] ?? 255;
      if (v === 255) throw new Error(`not a QR alphanumeric character: ${JSON.stringify(text[at])}`);
      return v;
    };
    for (let i = 0; i + 1 < text.length; i += 2) out.put(value(i) * 45 + value(i + 1), 11);
    if (text.length % 2 === 1) out.put(value(text.length - 1), 6);
  }
}

/** The smallest version whose level-M data capacity holds `segments`. */
function versionFor(segments: QrSegment[]): number {
  for (let version = 1; version <= MAX_VERSION; version++) {
    let bits = 0;
    for (const segment of segments) bits += 4 + countBits(segment.mode, version) + payloadBits(segment);
    if (bits <= templateOf(version).dataCodewords * 8) return version;
  }
  throw new Error('the data do not fit a QR code at level M');
}

/** The data codewords of `segments` at `version`: terminator, bit padding and pad bytes included. */
function dataCodewords(segments: QrSegment[], version: number, count: number): Uint8Array {
  const out = new BitWriter(new Uint8Array(count));
  for (const segment of segments) writeSegment(out, segment, version);
  out.flush();
  // Up to 4 zero bits of terminator, then zeros to the byte: the array is zero-filled, so only the length moves.
  const used = Math.ceil(Math.min(out.length + 4, count * 8) / 8);
  for (let i = used; i < count; i++) out.bytes[i] = PAD_BYTES[(i - used) % 2]!;
  return out.bytes;
}

/** Data and error correction codewords, interleaved block by block. */
function interleavedCodewords(data: Uint8Array, version: number): Uint8Array {
  const blocks = BLOCKS[version - 1]!;
  const ecPerBlock = EC_PER_BLOCK[version - 1]!;
  // The last (data.length % blocks) blocks hold one data codeword more.
  const shortLength = Math.floor(data.length / blocks);
  const longBlocks = data.length % blocks;
  const out = new Uint8Array(data.length + ecPerBlock * blocks);
  for (let b = 0, start = 0; b < blocks; b++) {
    const length = shortLength + (b >= blocks - longBlocks ? 1 : 0);
    const block = data.subarray(start, start + length);
    start += length;
    for (let i = 0; i < shortLength; i++) out[i * blocks + b] = block[i]!;
    // A long block's last codeword comes after every block's first shortLength, long blocks in order.
    if (length > shortLength) out[shortLength * blocks + b - (blocks - longBlocks)] = block[shortLength]!;
    const ec = errorCorrection(block, ecPerBlock);
    for (let i = 0; i < ecPerBlock; i++) out[data.length + i * blocks + b] = ec[i]!;
  }
  return out;
}

/** The module matrix of `segments` (as qr-image.ts's brCodeSegments gives them), level M, mask pattern 2. */
export function qrMatrix(segments: QrSegment[]): QrMatrix {
  const version = versionFor(segments);
  const template = templateOf(version);
  const codewords = interleavedCodewords(dataCodewords(segments, version, template.dataCodewords), version);
  const modules = template.modules.slice();
  const { placement, mask } = template;
  let k = 0;
  for (let i = 0; i < codewords.length; i++) {
    const codeword = codewords[i]!;
    for (let shift = 7; shift >= 0; shift--, k++) modules[placement[k]!] = ((codeword >>> shift) & 1) ^ mask[k]!;
  }
  // Remainder bits past the last codeword are light before masking.
  for (; k < placement.length; k++) modules[placement[k]!] = mask[k]!;
  return { size: template.size, data: modules };
}
