// @vitest-environment happy-dom
import { PERFETTO_IN_BROWSER_BYTES } from '@pagelens/core';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { mountDom } from '../../../test/dom-mount.tsx';
import { createAppStore } from '../../store/app-store.ts';
import { ImportStatus } from './ImportStatus.tsx';

function mount(language: 'en' | 'zh') {
  const store = createAppStore();
  store.getState().setExportTooLarge({ name: 'job.perfetto.json', bytes: 15 * PERFETTO_IN_BROWSER_BYTES });
  const { container } = mountDom(<ImportStatus />, { language, store });
  return { store, panel: () => container.querySelector('[data-testid="export-too-large"]') };
}

describe('an export too large for Perfetto in a tab', () => {
  it('says so with its size and the trace_processor command, in English; Dismiss clears it', () => {
    const { store, panel } = mount('en');
    expect(panel()?.textContent).toContain('job.perfetto.json is 15 GiB: more than ui.perfetto.dev holds in a browser tab');
    expect(panel()?.querySelector('code')?.textContent).toBe('trace_processor --httpd job.perfetto.json');
    expect(panel()?.querySelector('a')?.getAttribute('href')).toBe('https://perfetto.dev/docs/visualization/large-traces');
    act(() =>
      panel()
        ?.querySelector('button')
        ?.dispatchEvent(new MouseEvent('click', { bubbles: true })),
    );
    expect(store.getState().exportTooLarge).toBeUndefined();
    expect(panel()).toBeNull();
  });

  it('and in Chinese', () => {
    const { panel } = mount('zh');
    expect(panel()?.querySelector('h2')?.textContent).toContain('超出 ui.perfetto.dev 在浏览器标签页中能容纳的量');
    expect(panel()?.textContent).toContain('trace_processor');
  });
});
