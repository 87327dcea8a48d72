import type { Page } from '@playwright/test';

/** One thing a person would see as broken layout: a scrolling page, a cut label, a word split across lines. */
export interface LayoutProblem {
  readonly kind: 'page-overflow' | 'container-overflow' | 'clipped-text' | 'clipped-select' | 'broken-word';
  /** A short CSS-like path to the element, e.g. `header.app-header > button`. */
  readonly where: string;
  readonly detail: string;
}

/**
 * Containers that must never be wider inside than outside. Elements meant to scroll sideways are
 * not listed (the view tab strips, the code editor, the page-map canvas host).
 */
export const KNOWN_CONTAINERS = [
  '.app-header',
  '.explorer',
  '.column.left',
  '.column.center',
  '.column.right',
  '.view-body',
  '.act-panel',
  '.act-frame',
  '.time-bar',
  '.view-strip',
  '.split-code',
  '.split-beside',
  '.split-beside-body',
  '.split-beside-scroll',
  '.split-inspector',
  '.mapping-scroll',
  '[data-testid="inspector"]',
  '[data-testid="vmm-wizard"]',
  '[data-testid="help-overlay"]',
] as const;

/** Elements the text check leaves out, by selector (none today: every select and label is measured). */
export const NOT_MEASURED: readonly string[] = [];

/** Elements whose text must be shown whole: selects, buttons and the named cells and labels. */
export const WHOLE_TEXT = 'button, select, label, th, td, dt, dd, summary, .badge, .toggle button, h2, h3, .mt-line, .mt-wrap';

/**
 * Measures the page as it is now. Runs in the browser, so it is one self-contained function: a
 * container is overflowing when its scrollWidth exceeds its clientWidth; a text element is clipped
 * when it hides overflow (or ellipsises) and its content is wider than its box; a select is clipped
 * when its chosen option's text is wider than the room beside the arrow; a C identifier is broken
 * when a line ends inside it other than after an underscore.
 */
export function measureLayout(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(
    ([containers, whole, skipped]) => {
      const problems: { kind: LayoutProblem['kind']; where: string; detail: string }[] = [];
      const SLACK = 1;
      const name = (element: Element): string => {
        const parts: string[] = [];
        let node: Element | null = element;
        while (node !== null && parts.length < 3) {
          const id = node.getAttribute('data-testid');
          const cls = typeof node.className === 'string' && node.className !== '' ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
          parts.unshift(`${node.tagName.toLowerCase()}${id === null ? cls : `[data-testid="${id}"]`}`);
          if (id !== null) break;
          node = node.parentElement;
        }
        return parts.join(' > ');
      };
      const visible = (element: Element): boolean => {
        if (!(element instanceof HTMLElement)) return false;
        if (element.closest('[hidden], .visually-hidden') !== null) return false;
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 || rect.height === 0) return false;
        const style = getComputedStyle(element);
        return style.visibility !== 'hidden' && style.display !== 'none';
      };
      const root = document.documentElement;
      if (root.scrollWidth > root.clientWidth + SLACK)
        problems.push({ kind: 'page-overflow', where: 'html', detail: `${root.scrollWidth} > ${root.clientWidth}` });
      for (const selector of containers) {
        for (const element of Array.from(document.querySelectorAll(selector))) {
          if (!visible(element)) continue;
          if (element.scrollWidth > element.clientWidth + SLACK)
            problems.push({
              kind: 'container-overflow',
              where: name(element),
              detail: `${element.scrollWidth} > ${element.clientWidth}`,
            });
        }
      }
      const canvas = document.createElement('canvas').getContext('2d');
      for (const element of Array.from(document.querySelectorAll(whole))) {
        if (!visible(element) || !(element instanceof HTMLElement) || skipped.some((selector) => element.matches(selector))) continue;
        const style = getComputedStyle(element);
        if (element instanceof HTMLSelectElement) {
          const option = element.selectedOptions[0];
          if (option === undefined || canvas === null) continue;
          canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const text = canvas.measureText(option.text).width;
          // The room for text: the box minus padding and the drop-down arrow (about 20 px in Chromium).
          const room = element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - 20;
          if (text > room + SLACK)
            problems.push({
              kind: 'clipped-select',
              where: name(element),
              detail: `"${option.text}" needs ${Math.ceil(text)} px, has ${Math.floor(room)}`,
            });
          continue;
        }
        // A line-clamped block (-webkit-line-clamp) clips downwards.
        if (style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '' && element.scrollHeight > element.clientHeight + SLACK)
          problems.push({
            kind: 'clipped-text',
            where: name(element),
            detail: `"${(element.textContent ?? '').trim().slice(0, 60)}" ${element.scrollHeight} > ${element.clientHeight} high`,
          });
        const hides = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
        if (hides && element.scrollWidth > element.clientWidth + SLACK && element.textContent?.trim() !== '')
          problems.push({
            kind: 'clipped-text',
            where: name(element),
            detail: `"${(element.textContent ?? '').trim().slice(0, 60)}" ${element.scrollWidth} > ${element.clientWidth}`,
          });
      }
      // C identifiers (ACL_MEM_MALLOC_HUGE_FIRST, aclrtMallocPhysical) must not break inside.
      const identifier = /\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|aclrt[A-Za-z0-9]+|acl[A-Z][A-Za-z0-9]+)\b/g;
      const range = document.createRange();
      // An element's own text, joined across the <wbr>s that mark where a name may break.
      for (const parent of Array.from(document.body.querySelectorAll('*'))) {
        if (!visible(parent) || parent.closest('.cm-editor, pre, option, select, script, style') !== null) continue;
        const chars: { node: Text; offset: number }[] = [];
        let value = '';
        for (const child of Array.from(parent.childNodes)) {
          if (child instanceof Text) {
            const text = child.nodeValue ?? '';
            for (let offset = 0; offset < text.length; offset += 1) chars.push({ node: child, offset });
            value += text;
          } else if (!(child instanceof HTMLElement && child.tagName === 'WBR')) {
            chars.push({ node: document.createTextNode(' '), offset: 0 });
            value += ' ';
          }
        }
        if (!identifier.test(value)) continue;
        identifier.lastIndex = 0;
        for (const match of value.matchAll(identifier)) {
          // A line may end after an underscore (ACL_MEM_MALLOC_ | HUGE_FIRST), never inside a part.
          let top: number | undefined;
          for (let at = 0; at < match[0].length; at += 1) {
            const char = chars[match.index + at];
            if (char === undefined || !char.node.isConnected) continue;
            range.setStart(char.node, char.offset);
            range.setEnd(char.node, char.offset + 1);
            const rect = Array.from(range.getClientRects()).find((box) => box.width > 0);
            if (rect === undefined) continue;
            const line = Math.round(rect.top);
            if (top !== undefined && line !== top && match[0][at - 1] !== '_')
              problems.push({ kind: 'broken-word', where: name(parent), detail: `${match[0].slice(0, at)} | ${match[0].slice(at)}` });
            top = line;
          }
        }
      }
      return problems;
    },
    [KNOWN_CONTAINERS, WHOLE_TEXT, NOT_MEASURED] as const,
  );
}
