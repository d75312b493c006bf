/*
 * Copy buttons: a button with class "copy" and data-copy-from="<id of a
 * field>" copies that field's value and says so for a moment. Why a module:
 * both checkout pages copy a Pix code and a boleto line the same way.
 */
import { $ } from './dom.js';

/** `copiedText()`: the "Copied!" of the page's current language. */
export function installCopyButtons(copiedText) {
  document.addEventListener('click', (ev) => {
    const button = ev.target;
    if (!(button instanceof HTMLElement) || !button.classList.contains('copy')) return;
    const field = $(button.getAttribute('data-copy-from'));
    if (!field || !field.value) return;
    field.select();
    if (!navigator.clipboard || !navigator.clipboard.writeText) return;
    navigator.clipboard.writeText(field.value).then(() => {
      const label = button.textContent;
      button.textContent = copiedText();
      setTimeout(() => {
        button.textContent = label;
      }, 1500);
    }, () => {});
  });
}
