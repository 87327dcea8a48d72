import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach } from 'vitest';
import { createI18n } from '../src/i18n/setup.ts';
import { type AppStore, createAppStore } from '../src/store/app-store.ts';
import { type FileActions, ImportProvider } from '../src/store/ImportContext.tsx';
import { StoreProvider } from '../src/store/StoreProvider.tsx';

/**
 * A component mounted for a DOM test (happy-dom) as the app mounts it: the UI's language, a store,
 * and the file importer's actions around it, rendered inside act(). Every mount is unmounted and the
 * page emptied after each test; a test that mounts twice in one case may unmount the first itself.
 */
Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

const mounted: Root[] = [];
afterEach(() => {
  for (const root of mounted.splice(0)) act(() => root.unmount());
  document.body.innerHTML = '';
});

const noop = (): void => undefined;

/** File actions that do nothing, for a component that only needs them to exist; a test overrides the ones it watches. */
export const NO_FILE_ACTIONS: FileActions = {
  open: noop,
  cancel: noop,
  remodel: noop,
  exportPerfetto: noop,
  exportProfilerCsv: noop,
  cancelExport: noop,
};

export interface MountOptions {
  readonly language?: 'en' | 'zh';
  readonly store?: AppStore;
  readonly fileActions?: Partial<FileActions>;
}

export interface Mounted {
  readonly container: HTMLElement;
  readonly store: AppStore;
  /** The element with this data-testid inside the mount, or null. */
  get(testId: string): Element | null;
  unmount(): void;
}

export function mountDom(node: ReactNode, options: MountOptions = {}): Mounted {
  const store = options.store ?? createAppStore();
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push(root);
  act(() =>
    root.render(
      <I18nextProvider i18n={createI18n(options.language ?? 'en')}>
        <StoreProvider store={store}>
          <ImportProvider actions={{ ...NO_FILE_ACTIONS, ...options.fileActions }}>{node}</ImportProvider>
        </StoreProvider>
      </I18nextProvider>,
    ),
  );
  return {
    container,
    store,
    get: (testId) => container.querySelector(`[data-testid="${testId}"]`),
    unmount: () => {
      const at = mounted.indexOf(root);
      if (at >= 0) mounted.splice(at, 1);
      act(() => root.unmount());
      container.remove();
    },
  };
}
