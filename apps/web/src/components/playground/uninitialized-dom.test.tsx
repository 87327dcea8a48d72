// @vitest-environment happy-dom
import { UNINITIALIZED, type VariableView } from '@pagelens/core';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/setup.ts';
import { createAppStore } from '../../store/app-store.ts';
import { StoreProvider } from '../../store/StoreProvider.tsx';
import { VariablesPanel } from './RunPanels.tsx';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

const VARIABLES: VariableView[] = [
  { name: 'virPtr', type: 'void *', value: UNINITIALIZED, scope: 'local', frame: 'main' },
  { name: 'prop', type: 'aclrtPhysicalMemProp', value: `{handleType = ${UNINITIALIZED}, reserve = 0}`, scope: 'local', frame: 'main' },
];

function values(language: 'en' | 'zh'): string[] {
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root?.render(
      <I18nextProvider i18n={createI18n(language)}>
        <StoreProvider store={createAppStore()}>
          <VariablesPanel variables={VARIABLES} />
        </StoreProvider>
      </I18nextProvider>,
    ),
  );
  return [...container.querySelectorAll('.pl-value')].map((cell) => cell.textContent ?? '');
}

describe('a never-set variable reads in the UI’s language', () => {
  it('中文', () => {
    expect(values('zh')).toEqual(['（未初始化）', '{handleType = （未初始化）, reserve = 0}']);
  });
  it('English', () => {
    expect(values('en')).toEqual(['(uninitialized)', '{handleType = (uninitialized), reserve = 0}']);
  });
});
