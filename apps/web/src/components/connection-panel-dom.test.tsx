// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/setup.ts';
import { ConnectionBadge, ConnectionPanel } from './ConnectionStatus.tsx';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

const waiting = {
  status: 'waiting-teardown',
  message: 'the last driver session is being torn down (its driver did not return in time); you become the driver once that ends',
  messageCode: { code: 'driver-after-teardown' },
} as const;

function mount(language: 'en' | 'zh', onWatch: () => void) {
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root?.render(
      <I18nextProvider i18n={createI18n(language)}>
        <ConnectionBadge connection={waiting} />
        <ConnectionPanel connection={waiting} onRetry={() => undefined} onWatch={onWatch} />
      </I18nextProvider>,
    ),
  );
  return document.querySelector('[data-testid="waiting-teardown"]');
}

describe('the connection panel while a hello waits for a teardown', () => {
  it('says what it waits for and offers to watch instead, in English', () => {
    let watched = 0;
    const panel = mount('en', () => {
      watched += 1;
    });
    expect(document.querySelector('[data-testid="connection"]')?.getAttribute('data-state')).toBe('waiting-teardown');
    expect(panel?.querySelector('h2')?.textContent).toBe('Waiting for the last session to be torn down');
    expect(panel?.textContent).toContain('becomes the driver of a new session as soon as that ends');
    act(() => panel?.querySelector('button')?.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    expect(watched).toBe(1);
  });

  it("in Chinese, the agent's coded text too", () => {
    const panel = mount('zh', () => undefined);
    expect(panel?.querySelector('h2')?.textContent).toBe('正在等待上一个会话清理完毕');
    expect(panel?.textContent).toContain('上一个驱动会话正在清理');
  });
});
