/*
 * The bars of a boleto's barcode: Interleaved 2 of 5 of its 44 digits, as
 * FEBRABAN lays it out. Why a module: the hosted page's printable boleto and
 * the dashboard's second copy draw the same bars from this one function.
 */

/** Narrow (n) and wide (w) elements of each digit in ITF. */
const ITF = ['nnwwn', 'wnnnw', 'nwnnw', 'wwnnn', 'nnwnw', 'wnwnn', 'nwwnn', 'nnnww', 'wnnwn', 'nwnwn'];
const NARROW = 1;
const WIDE = 3;

/**
 * The widths of an even number of digits, bar and space alternating from a
 * bar: start code, pairs (bars from the first digit, spaces from the second),
 * stop code. An odd count or a non-digit gives no bars (nothing to draw).
 */
function itfBars(code) {
  if (!/^(\d\d)+$/.test(String(code))) return [];
  const widths = ['n', 'n', 'n', 'n'];
  for (let i = 0; i < code.length; i += 2) {
    const bars = ITF[Number(code[i])];
    const spaces = ITF[Number(code[i + 1])];
    for (let k = 0; k < 5; k++) widths.push(bars[k], spaces[k]);
  }
  widths.push('w', 'n', 'n');
  return widths.map((w) => (w === 'w' ? WIDE : NARROW));
}

/** The bars as rectangles of a viewBox `0 0 width 50`: [{ x, width }], and the total width. */
export function itfRects(code) {
  const widths = itfBars(code);
  const rects = [];
  let x = 0;
  widths.forEach((w, i) => {
    if (i % 2 === 0) rects.push({ x, width: w });
    x += w;
  });
  return { rects, width: x };
}
