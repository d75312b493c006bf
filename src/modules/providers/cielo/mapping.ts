/**
 * Pure translations between our records and Cielo's sale documents
 * (E-commerce API 3.0). Amounts are integer centavos on both sides.
 */
import type { CardAuthorization, ChargeBuyer, ChargeRecord, ChargeRequest, ReceivedPayment } from '../provider.js';

/** Cielo's Payment.Status values (manual, "Status transacional"). */
export const CieloStatus = {
  NotFinished: 0,
  Authorized: 1,
  PaymentConfirmed: 2,
  Denied: 3,
  Voided: 10,
  Refunded: 11,
  Pending: 12,
  Aborted: 13,
  Scheduled: 20,
} as const;

/** The parts of Cielo's sale document we read. */
export interface CieloSale {
  MerchantOrderId?: string;
  Payment?: {
    PaymentId?: string;
    Type?: string;
    Status?: number;
    Amount?: number;
    CapturedAmount?: number;
    PaidAmount?: number;
    VoidedAmount?: number;
    CapturedDate?: string;
    VoidedDate?: string;
    ReturnCode?: string;
    ReturnMessage?: string;
    BarCodeNumber?: string;
    DigitableLine?: string;
    Url?: string;
    CreditCard?: { CardNumber?: string; Brand?: string };
  };
}

const MERCHANT_ORDER_ID_MAX = 50;

/**
 * Cielo's MerchantOrderId for a reference: the reference without its
 * separators (`pi_01jd…` → `pi01jd…`), since Cielo takes only letters and
 * digits there. Deterministic, so a retry sends the same key.
 */
export function merchantOrderIdOf(reference: string): string {
  const id = reference.replace(/[^0-9A-Za-z]/g, '');
  if (id.length === 0 || id.length > MERCHANT_ORDER_ID_MAX) {
    throw new RangeError(`reference ${JSON.stringify(reference)} does not make a MerchantOrderId (1..${MERCHANT_ORDER_ID_MAX} letters and digits)`);
  }
  return id;
}

/**
 * The longest MerchantOrderId each boleto bank takes (Cielo's manual, "Boleto":
 * Bradesco 27, Banco do Brasil 50); a bank not listed gets the shortest.
 */
const BOLETO_MERCHANT_ORDER_ID_MAX: Readonly<Record<string, number>> = { Bradesco: 27, Bradesco2: 27, BancoDoBrasil: 50, BancoDoBrasil2: 50, BancoDoBrasil3: 50 };
const boletoMaxOf = (bank: string): number => BOLETO_MERCHANT_ORDER_ID_MAX[bank] ?? 27;

/**
 * Cielo's MerchantOrderId for a boleto registered by `bank`. Where the
 * reference without its separators fits, it is that (as for cards);
 * otherwise (Bradesco's 27 against an intent id's 28) the part after the
 * prefix, the id's 26 characters of time and randomness: still unique among
 * our references of one prefix, and reversible (`pi_` + it). The key is
 * stored in provider_charges, so a lookup never has to reverse it.
 */
export function boletoMerchantOrderIdOf(reference: string, bank: string): string {
  const max = boletoMaxOf(bank);
  const whole = reference.replace(/[^0-9A-Za-z]/g, '');
  const separator = reference.indexOf('_');
  const id = whole.length <= max || separator < 0 ? whole : reference.slice(separator + 1).replace(/[^0-9A-Za-z]/g, '');
  if (id.length === 0 || id.length > max) {
    throw new RangeError(`reference ${JSON.stringify(reference)} does not make a MerchantOrderId for ${bank} (1..${max} letters and digits)`);
  }
  return id;
}

/** Our lower-case brand ids (vault/card-brands.ts) as Cielo spells them. */
const BRANDS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Master',
  amex: 'Amex',
  elo: 'Elo',
  hipercard: 'Hipercard',
  diners: 'Diners',
  discover: 'Discover',
  jcb: 'JCB',
  aura: 'Aura',
};

export function cieloBrand(brand: string): string {
  const name = BRANDS[brand.toLowerCase()];
  if (!name) throw new RangeError(`Cielo takes no card brand ${JSON.stringify(brand)}`);
  return name;
}

/** The sale body of a card authorization, captured at once. */
export function cardSaleBody(merchantOrderId: string, req: CardAuthorization): unknown {
  const { card } = req;
  return {
    MerchantOrderId: merchantOrderId,
    Customer: { Name: card.holderName },
    Payment: {
      Type: 'CreditCard',
      Amount: req.amountCents,
      Installments: req.installments,
      Capture: true,
      CreditCard: {
        CardNumber: card.number,
        Holder: card.holderName,
        ExpirationDate: `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`,
        SecurityCode: card.cvv,
        Brand: cieloBrand(card.brand),
      },
    },
  };
}

function customerOf(buyer: ChargeBuyer): Record<string, unknown> {
  // Already without punctuation (the API refuses it); an alphanumeric CNPJ keeps its letters.
  const identity = buyer.document;
  const customer: Record<string, unknown> = { Name: buyer.name, Identity: identity, IdentityType: identity.length === 14 ? 'CNPJ' : 'CPF' };
  const a = buyer.address;
  if (a) {
    customer.Address = {
      Street: a.street,
      Number: a.number,
      Complement: a.complement,
      ZipCode: a.zipCode.replace(/\D/g, ''),
      City: a.city,
      State: a.state,
      District: a.neighborhood,
    };
  }
  return customer;
}

/** The sale body of a boleto registered by `boletoProvider` (the bank, e.g. Bradesco2). */
export function boletoSaleBody(merchantOrderId: string, req: ChargeRequest, boletoProvider: string): unknown {
  return {
    MerchantOrderId: merchantOrderId,
    Customer: customerOf(req.buyer),
    Payment: {
      Type: 'Boleto',
      Amount: req.amountCents,
      Provider: boletoProvider,
      ExpirationDate: req.dueDate,
      Instructions: req.description,
    },
  };
}

/** A sale that moved money and still does: authorized or confirmed. */
export const stands = (sale: CieloSale): boolean =>
  sale.Payment?.Status === CieloStatus.Authorized || sale.Payment?.Status === CieloStatus.PaymentConfirmed;

const isReversed = (status: number | undefined): boolean => status === CieloStatus.Voided || status === CieloStatus.Refunded;
const isRefused = (status: number | undefined): boolean => status === CieloStatus.Denied || status === CieloStatus.Aborted;

/**
 * Whether a sale's status is final enough to be a record (approved, refused
 * or reversed); others (NotFinished, Scheduled…) are unknown. A boleto waits
 * for its payer as Authorized (1) or Pending (12): both mean registered.
 */
export const isDecided = (sale: CieloSale): boolean => {
  const status = sale.Payment?.Status;
  if (sale.Payment?.Type === 'Boleto' && status === CieloStatus.Pending) return true;
  return stands(sale) || isReversed(status) || isRefused(status);
};

/** Our brand id of a Cielo Brand name (the inverse of cieloBrand). */
export function ourBrand(cielo: string | undefined): string {
  const found = Object.entries(BRANDS).find(([, name]) => name.toLowerCase() === (cielo ?? '').toLowerCase());
  return found ? found[0] : (cielo ?? '').toLowerCase();
}

/** What may be shown of a sale's card: Cielo answers the number masked (`455187******0183`). */
export function cardOfSale(sale: CieloSale): { brand: string; last4: string } | undefined {
  const card = sale.Payment?.CreditCard;
  if (!card) return undefined;
  const digits = (card.CardNumber ?? '').replace(/\D/g, '');
  return { brand: ourBrand(card.Brand), last4: digits.slice(-4) };
}

/**
 * Our record of a decided sale. A boleto is `approved` once registered
 * (Pending, 12, is its unpaid state). A voided or refunded sale stays an
 * approval with `reversedAt`, so the caller knows money moved and came back.
 */
export function chargeRecordOf(reference: string, sale: CieloSale, now: Date, card?: { brand: string; last4: string }): ChargeRecord {
  const p = sale.Payment ?? {};
  const record: ChargeRecord = { reference, providerId: p.PaymentId ?? '', approved: true };
  const shown = card ?? cardOfSale(sale);
  if (shown) record.card = shown;
  if (p.Type === 'Boleto') {
    record.boleto = { digitableLine: (p.DigitableLine ?? '').replace(/\D/g, ''), barcode: p.BarCodeNumber ?? '', url: p.Url ?? '' };
  }
  if (isRefused(p.Status)) {
    record.approved = false;
    record.refusalCode = p.ReturnCode ?? String(p.Status);
    record.refusalMessage = p.ReturnMessage ?? 'Denied';
  } else if (isReversed(p.Status)) {
    record.reversedAt = isoOr(p.VoidedDate, now);
  }
  return record;
}

/**
 * Cielo's dates come as "2026-11-21 12:00:00" (São Paulo time, no offset) or
 * ISO; an unreadable one falls back to `now`.
 */
export function parseCieloDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.replace(' ', 'T')}-03:00` : value;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const isoOr = (value: string | undefined, now: Date): string => (parseCieloDate(value) ?? now).toISOString();

/** A paid boleto sale (Status 2) as a received payment; undefined while unpaid. */
export function receivedPaymentOf(reference: string, sale: CieloSale, now: Date): ReceivedPayment | undefined {
  const p = sale.Payment;
  if (!p?.PaymentId || p.Status !== CieloStatus.PaymentConfirmed) return undefined;
  return {
    paymentId: p.PaymentId,
    reference,
    amountCents: p.PaidAmount ?? p.Amount ?? 0,
    paidAt: parseCieloDate(p.CapturedDate) ?? now,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isPaymentId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
