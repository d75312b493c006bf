/*
 * How both checkout pages show money, dates, boleto lines and tax ids in a
 * language ('pt-BR' or 'en'). Why a module: pure functions the demo checkout
 * and the payment link page share, so they show a sale the same way.
 */

export function money(cents, locale) {
  return new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100);
}

/** YYYY-MM-DD → 21/11/2026 (pt-BR) or 21/11/2026 (en-GB); a timestamp also gets its São Paulo time. */
export function date(iso, locale) {
  const d = new Date(iso.length === 10 ? iso + 'T12:00:00Z' : iso);
  if (isNaN(d.getTime())) return iso;
  const opts = iso.length === 10
    ? { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }
    : { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' };
  return d.toLocaleString(locale === 'en' ? 'en-GB' : 'pt-BR', opts);
}

/** 47 digits → 00190.00009 01234.567891 23456.789012 3 12340000015990 */
export function digitableLine(line) {
  const d = String(line).replace(/\D/g, '');
  if (d.length !== 47) return line;
  return d.slice(0, 5) + '.' + d.slice(5, 10) + ' ' + d.slice(10, 15) + '.' + d.slice(15, 21) + ' ' +
    d.slice(21, 26) + '.' + d.slice(26, 32) + ' ' + d.slice(32, 33) + ' ' + d.slice(33);
}

/** CPF 000.000.000-00, CNPJ 00.000.000/0000-00 (the alphanumeric CNPJ too: 12.ABC.345/01DE-35). */
export function taxId(doc) {
  if (/^\d{11}$/.test(doc)) return doc.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
  if (/^[0-9A-Z]{12}\d{2}$/.test(doc)) return doc.replace(/^(.{2})(.{3})(.{3})(.{4})(\d{2})$/, '$1.$2.$3/$4-$5');
  return doc;
}
