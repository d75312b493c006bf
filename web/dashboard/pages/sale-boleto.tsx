/**
 * A boleto sale's second copy: the digitable line to copy, the barcode (the
 * 44 digits drawn as Interleaved 2 of 5 by web/shared/itf.js, the hosted
 * page's own bars, and written out), the due date, and Imprimir boleto,
 * which prints this sheet alone (dashboard.css, @media print).
 */
import { CopyField } from '../components/copy-field.js';
import { money, taxId, when } from '../format.js';
import { useI18n } from '../i18n.js';
import { digitableLine } from '../../shared/format.js';
import { itfRects } from '../../shared/itf.js';
import type { Transaction } from './transactions.js';

interface Boleto {
  digitableLine: string;
  barcode: string;
  dueDate: string;
}

/** Marks the page for the print stylesheet while the browser prints, so only the boleto goes to paper. */
function printBoleto() {
  document.body.classList.add('printing-boleto');
  const done = () => {
    document.body.classList.remove('printing-boleto');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
}

export function BoletoCopy({ trx, boleto }: { trx: Transaction; boleto: Boleto }) {
  const { t, locale } = useI18n();
  const { rects, width } = itfRects(boleto.barcode) as { rects: { x: number; width: number }[]; width: number };
  const line = digitableLine(boleto.digitableLine) as string;
  return (
    <section class="panel boleto-copy" aria-labelledby="boleto-title">
      <div class="page-head">
        <h2 id="boleto-title">{t('boletoTitle')}</h2>
        <button type="button" class="secondary no-print" onClick={printBoleto}>
          {t('boletoPrint')}
        </button>
      </div>
      <div class="boleto-sheet">
        <div class="no-print">
          <CopyField label={t('boletoLine')} value={line} />
        </div>
        <p class="print-only sheet-line mono">{line}</p>
        <dl class="facts">
          <dt>{t('boletoDue')}</dt>
          <dd>{when(boleto.dueDate, locale)}</dd>
          <dt>{t('amount')}</dt>
          <dd>{money(trx.amountCents, locale)}</dd>
          {trx.sellerName && (
            <>
              <dt>{t('boletoBeneficiary')}</dt>
              <dd>{trx.sellerName}</dd>
            </>
          )}
          <dt>{t('boletoPayer')}</dt>
          <dd>
            {trx.buyer.name}
            {trx.buyer.document && ` · ${taxId(trx.buyer.document)}`}
          </dd>
          <dt>{t('boletoBarcode')}</dt>
          <dd class="mono break">{boleto.barcode}</dd>
        </dl>
        {rects.length > 0 && (
          <svg class="barcode" viewBox={`0 0 ${width} 50`} preserveAspectRatio="none" role="img" aria-label={`${t('boletoBarcode')}: ${boleto.barcode}`}>
            {rects.map((r) => (
              <rect key={r.x} x={r.x} y={0} width={r.width} height={50} />
            ))}
          </svg>
        )}
      </div>
    </section>
  );
}
