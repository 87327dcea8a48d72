// @vitest-environment happy-dom
import { ASCEND_910B2, text, withText } from '@pagelens/core';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { need, startScene } from '../../../test/log-scene.ts';
import { createI18n } from '../../i18n/setup.ts';
import { callRow } from '../../model/log/call-rows.ts';
import { createAppStore } from '../../store/app-store.ts';
import { StoreProvider } from '../../store/StoreProvider.tsx';
import { Notices } from '../shell/Notices.tsx';
import { LogRow, rowLabels } from './LogRow.tsx';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

function render(language: 'en' | 'zh', node: React.ReactNode): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root?.render(<I18nextProvider i18n={createI18n(language)}>{node}</I18nextProvider>));
  return container;
}

/** A failed aclrtFree as the log shows it, in a real row. */
async function failedFreeRow() {
  const scene = await startScene();
  await scene.rt.aclrtFree({ devPtr: '0x1234' });
  const index = scene.events.length - 1;
  return need(callRow(scene.events, index, [ASCEND_910B2]), 'the call row');
}

function Row({ row }: { row: NonNullable<ReturnType<typeof callRow>> }) {
  const { t } = useTranslation();
  return (
    <LogRow
      row={row}
      labels={rowLabels(t)}
      prefs={{ units: 'binary', addresses: 'hex' }}
      selected={false}
      atCursor={false}
      future={false}
      related={false}
      top={0}
    />
  );
}

describe('messages from the agent read in the UI’s language', () => {
  it.each([
    ['zh', 'devPtr 0x1234 不是本进程一个有效 Device 分配的起始地址（重复释放，或从未分配）（DM-13）'],
    ['en', 'devPtr 0x1234 is not the start of a live device allocation of this process (freed twice, or never allocated) (DM-13)'],
  ] as const)('a failed call in the log (%s)', async (language, expected) => {
    const row = await failedFreeRow();
    const container = render(language, <Row row={row} />);
    expect(container.querySelector('.log-message')?.textContent).toBe(expected);
    expect(container.querySelector('[data-testid="log-row"]')?.getAttribute('title')).toContain(expected);
  });

  it('the host-reset notice in Chinese; an uncoded notice keeps its English', () => {
    const store = createAppStore();
    const reset = withText(text('host-reset', { profile: 'Ascend910B2', devices: 2 }));
    store.getState().pushNotice({ type: 'notice', level: 'info', code: 'reset', ...reset }, 1);
    store.getState().pushNotice({ type: 'notice', level: 'warn', code: 'bad-message', message: 'args.size: expected a number' }, 2);
    const container = render(
      'zh',
      <StoreProvider store={store}>
        <Notices />
      </StoreProvider>,
    );
    const texts = [...container.querySelectorAll('.notice span')].map((span) => span.textContent);
    expect(texts).toEqual(['Host 已重置（Ascend910B2 × 2）', 'args.size: expected a number']);
  });
});
