/*
 * The buyer's details: name, CPF or CNPJ (check digits, the server's own
 * rule from src/lib/tax-id.ts), e-mail, and the address a boleto needs. Why a
 * module: the form is checked here before anything is sent, and the server's
 * field errors (buyer.document, buyer.address.zipCode…) land under the same
 * fields.
 */
import { isValidTaxId } from '../../src/lib/tax-id.ts';
import { $, node, show } from '../shared/dom.js';
import { taxId } from '../shared/format.js';
import { t } from './i18n.js';

const UFS = ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO'];
const ADDRESS = ['zipCode', 'street', 'number', 'complement', 'neighborhood', 'city', 'state'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The input id of an API field name (buyer.document → buyer-document, buyer.address.city → address-city). */
function inputOf(field) {
  const m = /^buyer\.(?:address\.)?(\w+)$/.exec(field);
  if (!m) return null;
  return field.indexOf('.address.') > 0 || field === 'buyer.address' ? 'address-' + m[1] : 'buyer-' + m[1];
}

/** Shows `message` under the field the API named; false when no field of the form matches. */
export function showFieldError(field, message) {
  const id = field === 'buyer.address' ? 'address-zipCode' : inputOf(field);
  const input = id && $(id);
  const error = id && $(id + '-error');
  if (!input || !error) return false;
  error.textContent = message;
  show(error, true);
  input.setAttribute('aria-invalid', 'true');
  return true;
}

function clearFieldErrors() {
  for (const el of document.querySelectorAll('#checkout .field-error')) show(el, false);
  for (const el of document.querySelectorAll('#checkout [aria-invalid]')) el.removeAttribute('aria-invalid');
}

export function renderStates() {
  const select = $('address-state');
  if (select.options.length > 0) return;
  select.appendChild(node('option', '—'));
  select.options[0].value = '';
  for (const uf of UFS) {
    const opt = node('option', uf);
    opt.value = uf;
    select.appendChild(opt);
  }
}

/** Digits only: what the API takes for a CEP. */
const digits = (id) => $(id).value.replace(/\D/g, '');
/** A tax id as the API takes it: the punctuation typed dropped, the letters of an alphanumeric CNPJ in capitals. */
const taxIdOf = (id) => $(id).value.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/** The buyer as the API takes it, or null with every problem shown under its field (the first one focused). */
export function readBuyer(method) {
  clearFieldErrors();
  const problems = [];
  const name = $('buyer-name').value.trim();
  if (!name) problems.push(['buyer.name', t('invalidName')]);
  const document = taxIdOf('buyer-document');
  if (!isValidTaxId(document)) problems.push(['buyer.document', t('invalidDocument')]);
  const email = $('buyer-email').value.trim();
  if (!EMAIL.test(email)) problems.push(['buyer.email', t('invalidEmail')]);
  const buyer = { name, document, email };
  if (method === 'BOLETO') {
    const address = {};
    for (const part of ADDRESS) {
      const value = part === 'zipCode' ? digits('address-zipCode') : $('address-' + part).value.trim();
      if (value) address[part] = value;
      else if (part !== 'complement') problems.push(['buyer.address.' + part, t('required')]);
    }
    if (address.zipCode && address.zipCode.length !== 8) problems.push(['buyer.address.zipCode', t('invalidZip')]);
    buyer.address = address;
  }
  for (const [field, message] of problems) showFieldError(field, message);
  if (problems.length > 0) {
    $(inputOf(problems[0][0])).focus();
    return null;
  }
  return buyer;
}

/** Formats the tax id as it is typed out of focus (000.000.000-00 / 00.000.000/0000-00, letters of an alphanumeric CNPJ in capitals). */
export function installMasks() {
  $('buyer-document').addEventListener('blur', (ev) => {
    const doc = taxIdOf('buyer-document');
    const formatted = taxId(doc);
    if (formatted !== doc) ev.target.value = formatted;
  });
  $('address-zipCode').addEventListener('blur', (ev) => {
    const d = ev.target.value.replace(/\D/g, '');
    if (d.length === 8) ev.target.value = d.slice(0, 5) + '-' + d.slice(5);
  });
  for (const input of document.querySelectorAll('#checkout input, #checkout select')) {
    input.addEventListener('input', () => {
      const error = $(input.id + '-error');
      if (error) show(error, false);
      input.removeAttribute('aria-invalid');
    });
  }
}

