/**
 * The languages of the service's messages, and the choice between them from
 * an Accept-Language header (RFC 9110 §12.5.4): the supported language with
 * the highest q-value wins, the header's order breaks ties, `q=0` refuses a
 * language, and English is the answer when nothing supported is asked for.
 * Any `pt` (pt, pt-BR, pt-PT) is answered in Brazilian Portuguese.
 */
export type Language = 'en' | 'pt-BR';

export const DEFAULT_LANGUAGE: Language = 'en';

function supported(tag: string): Language | undefined {
  const primary = tag.toLowerCase().split('-', 1)[0];
  if (primary === 'pt') return 'pt-BR';
  if (primary === 'en') return 'en';
  return undefined;
}

function qualityOf(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=').map((s) => s.trim());
    if (name?.toLowerCase() === 'q') {
      const q = Number(value);
      return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
    }
  }
  return 1;
}

export function negotiateLanguage(header: string | string[] | undefined): Language {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return DEFAULT_LANGUAGE;
  let best: { language: Language; q: number } | undefined;
  for (const range of text.split(',')) {
    const [tag = '', ...params] = range.split(';').map((s) => s.trim());
    const q = qualityOf(params);
    // `*` accepts anything: the default serves it.
    const language = tag === '*' ? DEFAULT_LANGUAGE : supported(tag);
    if (!language || q <= 0) continue;
    if (!best || q > best.q) best = { language, q };
  }
  return best?.language ?? DEFAULT_LANGUAGE;
}
