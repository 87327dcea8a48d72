// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/setup.ts';
import { createAppStore } from '../../store/app-store.ts';
import { ImportProvider } from '../../store/ImportContext.tsx';
import { StoreProvider } from '../../store/StoreProvider.tsx';
import { NothingOpen } from './NothingOpen.tsx';
import { ProfilerCsv } from './ProfilerCsv.tsx';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

const noop = () => undefined;
const actions = { open: noop, cancel: noop, exportPerfetto: noop, exportProfilerCsv: noop, cancelExport: noop, remodel: noop };

function mount(language: 'en' | 'zh', agentFile: string | undefined) {
  const store = createAppStore();
  store.getState().setAgentFile(agentFile);
  store.getState().setProfilerCsv({
    name: 'operator_memory.csv',
    bytes: 100,
    table: { kind: 'operator_memory', rows: [{ line: 2, name: 'MatMul', sizeKB: 64, allocationTimeUs: 1, releaseTimeUs: 9, device: 0 }] },
  });
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root?.render(
      <I18nextProvider i18n={createI18n(language)}>
        <StoreProvider store={store}>
          <ImportProvider actions={actions}>
            <ProfilerCsv />
            <NothingOpen />
          </ImportProvider>
        </StoreProvider>
      </I18nextProvider>,
    ),
  );
  return { container, store };
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
    act(() => root?.unmount());
    const zh = mount('zh', 'operator_memory.csv');
    act(() => (zh.container.querySelector('[data-testid=profiler-csv-close]') as HTMLButtonElement).click());
    expect(zh.container.querySelector('[data-testid=nothing-open] h2')?.textContent).toBe('没有打开的文件');
  });
});
