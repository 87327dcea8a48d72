import { describe, expect, it } from 'vitest';
import { createI18n } from './setup.ts';

const en = createI18n('en').t;
const zh = createI18n('zh').t;

/** Counts a student reads (pages, PTEs, frames, rows) carry thousands separators in both languages. */
describe('counts are formatted', () => {
  it('the allocation preview of 1 TiB HUGE_FIRST: pages and the failing fallback', () => {
    expect(en('actions.preview.pagesValue', { pages: 524_289, pageSize: '2 MiB', pageClass: 'huge' })).toBe('524,289 × 2 MiB huge');
    expect(zh('actions.preview.pagesValue', { pages: 524_289, pageSize: '2 MiB', pageClass: '大页' })).toBe('524,289 × 2 MiB 大页');
    expect(en('actions.preview.free', { pageClass: 'huge', free: 32_768, needed: 524_289 })).toBe(
      'Free huge pages now: 32,768 · needed 524,289',
    );
    const fails = en('actions.preview.fallbackShort', {
      pageClass: 'huge',
      fallbackClass: 'normal',
      free: 16_777_216,
      needed: 268_435_457,
    });
    expect(fails).toMatch(/^Will fail: /);
    expect(fails).toContain('(16,777,216 free, 268,435,457 needed)');
    expect(fails).not.toContain('fall back to normal pages.');
    expect(
      zh('actions.preview.fallbackShort', { pageClass: '大页', fallbackClass: '普通页', free: 16_777_216, needed: 268_435_457 }),
    ).toContain('将会失败');
  });

  it('tables, walks and logs', () => {
    expect(en('addressSpace.table.pages', { pages: 268_435_457, pageSize: '4 KiB' })).toBe('268,435,457 × 4 KiB');
    expect(en('addressSpace.table.frameRange', { first: 32_735, last: 32_767 })).toBe('frames 32,735–32,767');
    expect(zh('addressSpace.table.count', { shown: 1000, total: 100_000 })).toBe('显示 1,000 / 100,000 行');
    expect(en('log.countFiltered', { shown: 12_345, total: 100_000 })).toBe('12,345 of 100,000 calls');
    expect(en('inspector.value.fallback', { free: 1, needed: 16_385 })).toBe(
      'only 1 free huge pages for 16,385 needed: fell back to normal pages',
    );
  });
});
