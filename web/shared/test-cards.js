/*
 * The sandbox's test cards and what the simulated acquirer answers for each,
 * as a list with copy buttons. Why a module: the demo checkout and a sandbox
 * link's hosted page show the same list.
 */
import { clear, node } from './dom.js';

const TEST_CARDS = [
  { number: '4111 1111 1111 1111', outcome: 'approved' },
  { number: '4111 1131 1111 0002', outcome: 'insufficient' },
  { number: '4111 1131 1111 0069', outcome: 'expired' },
  { number: '4111 1131 1111 0119', outcome: 'silent' },
];

/** Fills the list element with the cards, worded by `t` (outcome_* and copy). */
export function renderTestCards(list, t) {
  clear(list);
  for (const c of TEST_CARDS) {
    const li = node('li', null, 'test-card outcome-' + c.outcome);
    li.appendChild(node('code', c.number));
    li.appendChild(node('span', t('outcome_' + c.outcome), 'outcome'));
    const copy = node('button', t('copy'), 'link-button copy');
    copy.type = 'button';
    copy.setAttribute('data-copy-text', c.number.replace(/\s/g, ''));
    li.appendChild(copy);
    list.appendChild(li);
  }
}
