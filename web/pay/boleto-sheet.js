/*
 * The printable boleto: beneficiary, payer, due date, amount, the digitable
 * line and the barcode (Interleaved 2 of 5 of the 44-digit barcode, as
 * FEBRABAN lays it out), drawn as SVG rectangles. Why a module: the sheet is
 * only shown when printing (page.css), and it is built from the sale alone.
 */
import { $, clear, node } from '../shared/dom.js';
import { digitableLine, taxId } from '../shared/format.js';
import { itfRects } from '../shared/itf.js';
import { date, money, t } from './i18n.js';
import { data, state } from './state.js';

const SVG = 'http://www.w3.org/2000/svg';

function barcode(code) {
  const { rects, width } = itfRects(code);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 ' + width + ' 50');
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('class', 'barcode');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', code);
  for (const r of rects) {
    const bar = document.createElementNS(SVG, 'rect');
    bar.setAttribute('x', String(r.x));
    bar.setAttribute('y', '0');
    bar.setAttribute('width', String(r.width));
    bar.setAttribute('height', '50');
    svg.appendChild(bar);
  }
  return svg;
}

function row(label, value) {
  const cell = node('div', null, 'sheet-cell');
  cell.appendChild(node('span', label, 'sheet-label'));
  cell.appendChild(node('strong', value));
  return cell;
}

export function renderSheet(payment) {
  const sheet = $('boleto-sheet');
  clear(sheet);
  const boleto = payment.boleto;
  sheet.appendChild(node('p', digitableLine(boleto.digitableLine), 'sheet-line'));
  const grid = node('div', null, 'sheet-grid');
  grid.appendChild(row(t('sheetBeneficiary'), data.sellerName));
  grid.appendChild(row(t('sheetPayer'), state.buyer ? state.buyer.name + ' · ' + taxId(state.buyer.document) : ''));
  grid.appendChild(row(t('sheetDue'), date(boleto.dueDate)));
  grid.appendChild(row(t('sheetAmount'), money(payment.amountCents)));
  sheet.appendChild(grid);
  sheet.appendChild(node('p', data.description, 'sheet-description'));
  sheet.appendChild(barcode(boleto.barcode));
}
