/**
 * Links de pagamento: the links with status and payments count; Novo link
 * creates one as POST /v2/payment-links does and shows its address to copy,
 * its QR code and a WhatsApp share link; Compartilhar on each row shows the
 * same for a link made earlier; an active link can be cancelled.
 */
import { useRef, useState } from 'preact/hooks';
import { get, post, query } from '../api.js';
import { Confirm } from '../components/confirm.js';
import { CopyField } from '../components/copy-field.js';
import { CloseButton, Dialog } from '../components/dialog.js';
import { ErrorBox } from '../components/feedback.js';
import { Field, Problem } from '../components/fields.js';
import { useAction, useLoad } from '../components/load.js';
import { PageHead } from '../components/page-head.js';
import { ListEnd, useCursor, type Page } from '../components/pager.js';
import { MethodName, Status } from '../components/status.js';
import { Table } from '../components/table.js';
import { money, parseReais, when } from '../format.js';
import { useI18n } from '../i18n.js';
import { BASE, Link } from '../router.js';
import { useCan } from '../session.js';

interface PaymentLink {
  id: string;
  status: string;
  url: string;
  amountCents: number;
  description: string;
  paymentMethods: string[];
  maxInstallments: number;
  maxPayments?: number;
  paymentsCount: number;
  expiresAt?: string;
  createdAt: string;
  qrCode?: string;
}

const METHODS = ['CREDIT_CARD', 'PIX', 'BOLETO'] as const;

export function LinksPage() {
  const { t, locale } = useI18n();
  const can = useCan();
  const paging = useCursor();
  const list = useLoad(() => get<Page<PaymentLink>>(`/payment-links${query({ cursor: paging.cursor })}`), [paging.cursor]);
  const [creating, setCreating] = useState(false);
  const [canceling, setCanceling] = useState<PaymentLink | undefined>(undefined);
  const [sharing, setSharing] = useState<PaymentLink | undefined>(undefined);
  const write = can('links.write');

  return (
    <>
      <PageHead title={t('linksTitle')} action={write ? { label: t('newLink'), onClick: () => setCreating(true) } : undefined} />
      <ErrorBox error={list.error} />
      <Table columns={[t('description'), [t('amount'), 'num'], t('methods'), t('status'), [t('payments'), 'num'], t('createdAt'), t('actions')]}>
        {list.data?.data.map((link) => (
          <tr key={link.id}>
            <td>
              <a href={link.url} target="_blank" rel="noopener noreferrer">
                {link.description}
              </a>
            </td>
            <td class="num">{money(link.amountCents, locale)}</td>
            <td>
              {link.paymentMethods.map((m, i) => (
                <span key={m}>
                  {i > 0 && ', '}
                  <MethodName value={m} />
                </span>
              ))}
            </td>
            <td>
              <Status value={link.status} />
            </td>
            <td class="num">
              <Link href={`${BASE}/transactions${query({ paymentLinkId: link.id })}`}>
                {link.maxPayments ? `${link.paymentsCount} / ${link.maxPayments}` : String(link.paymentsCount)}
              </Link>
            </td>
            <td>{when(link.createdAt, locale)}</td>
            <td>
              <div class="row-actions">
                {link.status === 'ACTIVE' && (
                  <button type="button" class="link-button" onClick={() => setSharing(link)}>
                    {t('shareLink')}
                    <span class="visually-hidden"> {link.description}</span>
                  </button>
                )}
                {write && link.status === 'ACTIVE' && (
                  <button type="button" class="link-button danger" onClick={() => setCanceling(link)}>
                    {t('cancelLink')}
                    <span class="visually-hidden"> {link.description}</span>
                  </button>
                )}
              </div>
            </td>
          </tr>
        ))}
      </Table>
      <ListEnd page={list.data} paging={paging} empty={t('noneYet')} />
      {creating && (
        <NewLinkDialog
          onClose={(created) => {
            setCreating(false);
            if (created) list.reload();
          }}
        />
      )}
      {sharing && <ShareDialog link={sharing} onClose={() => setSharing(undefined)} />}
      {canceling && (
        <Confirm
          title={t('cancelLinkTitle', { name: canceling.description })}
          text={t('cancelLinkText')}
          confirm={t('cancelLink')}
          cancel={t('keep')}
          action={() => post(`/payment-links/${encodeURIComponent(canceling.id)}/cancel`)}
          onClose={(done) => {
            setCanceling(undefined);
            if (done) list.reload();
          }}
        />
      )}
    </>
  );
}

/** A link made earlier, shared as at its creation: its address to copy, its QR code (asked for when opened) and WhatsApp. */
function ShareDialog({ link, onClose }: { link: PaymentLink; onClose: () => void }) {
  const { t } = useI18n();
  const full = useLoad(() => get<PaymentLink>(`/payment-links/${encodeURIComponent(link.id)}`), [link.id]);
  return (
    <Dialog title={t('shareLinkTitle', { name: link.description })} onClose={onClose}>
      <ShareLink link={full.data ?? link} />
      <ErrorBox error={full.error} />
      <CloseButton onClose={onClose} label={t('close')} />
    </Dialog>
  );
}

/** The address to copy, the QR code and the WhatsApp share of a link. */
function ShareLink({ link }: { link: PaymentLink }) {
  const { t } = useI18n();
  const share = `https://wa.me/?text=${encodeURIComponent(`${link.description} ${link.url}`)}`;
  return (
    <>
      <CopyField label={t('linkUrl')} value={link.url} />
      {link.qrCode && <img class="qr" src={link.qrCode} alt={t('linkQrAlt')} width={200} height={200} />}
      <p>
        <a href={share} target="_blank" rel="noopener noreferrer">
          {t('shareWhatsApp')}
        </a>
      </p>
    </>
  );
}

/** A São Paulo wall-clock time from a datetime-local field (UTC−3) → an ISO instant. */
const instantOf = (local: string) => new Date(`${local}:00-03:00`).toISOString();

function NewLinkDialog({ onClose }: { onClose: (created: boolean) => void }) {
  const { t } = useI18n();
  const action = useAction();
  const [created, setCreated] = useState<PaymentLink | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const form = useRef<HTMLFormElement>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(form.current!);
    const amountCents = parseReais(String(data.get('amount') ?? ''));
    const paymentMethods = data.getAll('methods').map(String);
    if (amountCents === undefined || amountCents <= 0) return setProblem(t('amountInvalid'));
    if (paymentMethods.length === 0) return setProblem(t('chooseMethod'));
    setProblem(undefined);
    const maxPayments = String(data.get('maxPayments') ?? '').trim();
    const expiresAt = String(data.get('expiresAt') ?? '').trim();
    const body = {
      description: String(data.get('description') ?? '').trim(),
      amountCents,
      paymentMethods,
      maxInstallments: Number(data.get('maxInstallments') ?? 1),
      ...(maxPayments ? { maxPayments: Number(maxPayments) } : {}),
      ...(expiresAt ? { expiresAt: instantOf(expiresAt) } : {}),
    };
    const link = await action.run(() => post<PaymentLink>('/payment-links', body));
    if (link) setCreated(link);
  };

  if (created) {
    return (
      <Dialog title={t('linkCreated')} onClose={() => onClose(true)}>
        <ShareLink link={created} />
        <CloseButton onClose={() => onClose(true)} label={t('close')} />
      </Dialog>
    );
  }
  return (
    <Dialog title={t('newLinkTitle')} onClose={() => onClose(false)}>
      <form ref={form} onSubmit={submit} noValidate>
        <Field label={t('description')}>
          <input name="description" required maxLength={255} />
        </Field>
        <Field label={t('amount')}>
          <input name="amount" inputMode="decimal" required maxLength={20} placeholder="10,00" />
        </Field>
        <fieldset class="field">
          <legend>{t('methods')}</legend>
          {METHODS.map((m) => (
            <label class="check" key={m}>
              <input type="checkbox" name="methods" value={m} defaultChecked />
              <span>{t(`method_${m}`)}</span>
            </label>
          ))}
        </fieldset>
        <Field label={t('maxInstallments')}>
          <select name="maxInstallments" defaultValue="1">
            {Array.from({ length: 12 }, (_, i) => (
              <option key={i} value={String(i + 1)}>
                {i + 1}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('maxPayments')}>
          <input name="maxPayments" type="number" min={1} step={1} inputMode="numeric" />
        </Field>
        <Field label={t('expiresAt')}>
          <input name="expiresAt" type="datetime-local" />
        </Field>
        <Problem text={problem} />
        <ErrorBox error={action.error} />
        <div class="buttons">
          <button type="submit" class="primary" disabled={action.busy}>
            {t('createLink')}
          </button>
          <button type="button" class="secondary" onClick={() => onClose(false)}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
