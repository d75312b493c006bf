/**
 * CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no input or
 * output reflection, final XOR 0x0000. This is the checksum the EMV QRCPS
 * (Merchant-Presented Mode) mandates for field 63, and the one the BCB
 * "Manual de Padrões para Iniciação do Pix" refers to ("Polinômio 0x1021,
 * C.I. 0xFFFF"). Check value: "123456789" -> 29B1.
 */

const POLY = 0x1021;

/** The CRC of each byte value on its own (the bitwise loop run once per value), so a byte costs one lookup. */
const BYTE_CRC = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) {
    // Shift the top bit out; when it was set, fold the polynomial in.
    crc = crc & 0x8000 ? ((crc << 1) ^ POLY) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
});

/** CRC over the UTF-8 bytes of `text`, as 4 uppercase hex digits (e.g. "1D3D"). */
export function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = ((crc << 8) & 0xffff) ^ BYTE_CRC[(crc >> 8) ^ byte]!;
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
