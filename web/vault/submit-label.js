/*
 * The seller's text for the card frame's button (SvcVault.mount's
 * `submitLabel`). Why a module: the SDK checks it to tell the seller at
 * mount, and the frame checks it again, since whoever mounts the frame
 * writes its URL; one rule for both.
 */

/** The longest label: a button's few words ("Continuar para o pagamento"), not a sentence. */
export const SUBMIT_LABEL_MAX = 40;

// Control and formatting characters (line breaks, bidi overrides, zero-width marks): a label is one plain line.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/;

/** The label as the button shows it (trimmed), or null when it is not a plain string of 1 to SUBMIT_LABEL_MAX characters. */
export function plainLabel(value) {
  if (typeof value !== 'string') return null;
  const label = value.trim();
  return label.length > 0 && label.length <= SUBMIT_LABEL_MAX && !UNPRINTABLE.test(label) ? label : null;
}
