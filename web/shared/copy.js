/*
 * Copy buttons: a button with class "copy" copies the value of the field
 * named by data-copy-from="<id>" (selecting it), or its data-copy-text, and
 * says so for a moment. Why a module: both checkout pages copy a Pix code
 * and a boleto line (the demo also its test cards) the same way.
 */
import { $ } from './dom.js';

/** `copiedText()`: the "Copied!" of the page's current language. */
export function installCopyButtons(copiedText) {
  document.addEventListener('click', (ev) => {
    const button = ev.target;
    if (!(button instanceof HTMLElement) || !button.classList.contains('copy')) return;
    const from = button.getAttribute('data-copy-from');
    const field = from ? $(from) : null;
    const text = field ? field.value : button.getAttribute('data-copy-text');
    if (!text) return;
    if (field) field.select();
    if (!navigator.clipboard || !navigator.clipboard.writeText) return;
    navigator.clipboard.writeText(text).then(() => {
      const label = button.textContent;
      button.textContent = copiedText();
      setTimeout(() => {
        button.textContent = label;
      }, 1500);
    }, () => {});
  });
}
