/**
 * `svc providers check`: which connector serves each method, and proof that
 * each configured one works (its own `check`: credentials accepted, a query
 * answered). A connector serving two methods (Cielo: card and boleto) is
 * asked once.
 */
import type { ProviderChoice } from '../../config.js';
import type { ChargeMethod } from './provider.js';
import type { Providers } from './router.js';

export interface ProviderCheck {
  method: ChargeMethod;
  provider: string;
  ok: boolean;
  detail: string;
}

const CHOICE_OF: Record<ChargeMethod, keyof ProviderChoice> = { PIX: 'pix', CREDIT_CARD: 'card', BOLETO: 'boleto' };

export async function checkProviders(choice: ProviderChoice, providers: Providers): Promise<ProviderCheck[]> {
  const asked = new Map<string, Promise<{ ok: boolean; detail: string }>>();
  const checks: ProviderCheck[] = [];
  for (const method of ['PIX', 'CREDIT_CARD', 'BOLETO'] as const) {
    const provider = providers[method];
    if (!provider) {
      checks.push({ method, provider: choice[CHOICE_OF[method]], ok: true, detail: 'switched off: intents of this method are refused (422 PAYMENT_METHOD_UNAVAILABLE)' });
      continue;
    }
    let answer = asked.get(provider.name);
    if (!answer) {
      answer = provider.check().then(
        (detail) => ({ ok: true, detail }),
        (err: unknown) => ({ ok: false, detail: err instanceof Error ? err.message : String(err) }),
      );
      asked.set(provider.name, answer);
    }
    checks.push({ method, provider: provider.name, ...(await answer) });
  }
  return checks;
}
