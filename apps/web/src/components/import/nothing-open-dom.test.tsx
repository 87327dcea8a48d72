// @vitest-environment happy-dom
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { mountDom } from '../../../test/dom-mount.tsx';
import { createAppStore } from '../../store/app-store.ts';
import { NothingOpen } from './NothingOpen.tsx';
import { ProfilerCsv } from './ProfilerCsv.tsx';

function mount(language: 'en' | 'zh', agentFile: string | undefined) {
  const store = createAppStore();
  store.getState().setAgentFile(agentFile);
  store.getState().setProfilerCsv({
    name: 'operator_memory.csv',
    bytes: 100,
    table: { kind: 'operator_memory', rows: [{ line: 2, name: 'MatMul', sizeKB: 64, allocationTimeUs: 1, releaseTimeUs: 9, device: 0 }] },
  });
  return mountDom(
    <>
      <ProfilerCsv />
      <NothingOpen />
    </>,
    { language, store },
  );
}

describe('pagelens open with nothing left on show', () => {
  it('closing the only file leaves a note and a button to open another, not a blank page', () => {
    const { container } = mount('en', 'operator_memory.csv');
    expect(container.querySelector('[data-testid=nothing-open]')).toBeNull();
    act(() => (container.querySelector('[data-testid=profiler-csv-close]') as HTMLButtonElement).click());
    expect(container.querySelector('[data-testid=profiler-csv]')).toBeNull();
    const note = container.querySelector('[data-testid=nothing-open]');
    expect(note?.querySelector('h2')?.textContent).toBe('No file is open');
    expect(note?.querySelector('[data-testid=open-file-again]')?.textContent).toBe('Open file…');
    expect(note?.querySelector('[data-testid=open-file-again-input]')?.getAttribute('type')).toBe('file');
  });

  it('an agent session behind the page needs no note; the note speaks Chinese', () => {
    const live = mount('en', undefined);
    act(() => (live.container.querySelector('[data-testid=profiler-csv-close]') as HTMLButtonElement).click());
    expect(live.container.querySelector('[data-testid=nothing-open]')).toBeNull();
    live.unmount();
    const zh = mount('zh', 'operator_memory.csv');
    act(() => (zh.container.querySelector('[data-testid=profiler-csv-close]') as HTMLButtonElement).click());
    expect(zh.container.querySelector('[data-testid=nothing-open] h2')?.textContent).toBe('没有打开的文件');
  });
});
