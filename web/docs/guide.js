/*
 * The API guide (info.description) as the page shows it: the few Markdown
 * forms it uses (paragraphs, "- " lists, **bold**, `code`), built with DOM
 * nodes only, never as HTML.
 */
import { node } from '../shared/dom.js';

/** Appends `text` with **bold** and `code` spans to `el`. */
export function inline(el, text) {
  for (const part of text.split(/(\*\*[^*]+\*\*|`[^`]+`)/)) {
    if (!part) continue;
    if (part.startsWith('**') && part.endsWith('**')) el.appendChild(node('strong', part.slice(2, -2)));
    else if (part.startsWith('`') && part.endsWith('`') && part.length > 1) el.appendChild(node('code', part.slice(1, -1)));
    else el.appendChild(document.createTextNode(part));
  }
  return el;
}

/** The blocks of a Markdown text: a paragraph per blank-line-separated block, a list where every line starts with "- ". */
export function renderMarkdown(container, text) {
  for (const block of String(text || '').trim().split(/\n\s*\n/)) {
    const lines = block.split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length === 0) continue;
    if (lines.every((l) => l.startsWith('- '))) {
      const list = node('ul');
      for (const l of lines) list.appendChild(inline(node('li'), l.slice(2)));
      container.appendChild(list);
    } else {
      container.appendChild(inline(node('p'), lines.join(' ')));
    }
  }
}
