import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { App } from './app/App.tsx';
import { installTestHooks } from './app/test-hooks.ts';
import { createI18n, initialLanguage } from './i18n/setup.ts';
import type { ModelOptions } from './model/import/import-protocol.ts';
import { AgentClient, browserEnvironment } from './net/agent-client.ts';
import type { EarlySocket } from './net/early-socket.ts';
import { FileImporter } from './net/file-importer.ts';
import { PerfettoExporter } from './net/perfetto-exporter.ts';
import { createAppStore } from './store/app-store.ts';
import { type AgentActions, ClientProvider } from './store/ClientContext.tsx';
import { framePublisher } from './store/frame-publisher.ts';
import { ImportProvider } from './store/ImportContext.tsx';
import { StoreProvider } from './store/StoreProvider.tsx';
import { loadPrefs } from './store/ui-slice.ts';
import './styles/app.css';

/** Builds the store and the client (adopting the boot script's socket) and renders the app. */
export function start(early: EarlySocket | undefined): void {
  const page = new URL(window.location.href);
  const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  const store = createAppStore({
    prefs: loadPrefs(window.localStorage, prefersDark),
    storage: window.localStorage,
    publish: framePublisher(window),
  });
  const i18n = createI18n(initialLanguage(window.localStorage, navigator.language));
  document.documentElement.lang = i18n.language === 'zh' ? 'zh-CN' : 'en';

  function connect(): AgentClient {
    const client = new AgentClient({
      pageUrl: page.toString(),
      token: page.searchParams.get('token') ?? undefined,
      role: page.searchParams.get('role') === 'viewer' ? 'viewer' : 'driver',
      store,
      environment: browserEnvironment(),
      ...(early === undefined ? {} : { early }),
    });
    client.start();
    return client;
  }

  // pagelens open: the agent serves one file and no session, so the page reads the file instead of connecting.
  const agentFile = page.searchParams.get('open') ?? undefined;
  let client: AgentClient | undefined = agentFile === undefined ? connect() : undefined;
  const live = (): AgentClient => {
    client ??= connect();
    return client;
  };
  const actions: AgentActions = {
    call: (fn, args, process) => live().call(fn, args, process),
    callUnchecked: (fn, args, process) => live().callUnchecked(fn, args, process),
    reset: (options) => live().reset(options),
    retry: () => {
      client?.stop();
      client = connect();
    },
  };
  installTestHooks(window, store, actions);
  // An opened file replaces the agent's session: the link is closed so no live event mixes into the recording.
  const makeImportWorker = () => new Worker(new URL('./model/import/import-worker.ts', import.meta.url), { type: 'module' });
  const importer = new FileImporter(store, makeImportWorker, () => client?.stop());
  const exporter = new PerfettoExporter(store, makeImportWorker, importer);
  const fileActions = {
    open: (file: File) => importer.open(file),
    cancel: () => importer.cancel(),
    remodel: (options: ModelOptions) => importer.remodel(options),
    exportPerfetto: () => exporter.export(),
    exportProfilerCsv: () => exporter.exportProfilerCsv(),
    cancelExport: () => exporter.cancel(),
  };
  if (agentFile !== undefined) {
    store.getState().setAgentFile(agentFile);
    importer.openSource(
      { url: '/file', token: page.searchParams.get('token') ?? '', name: agentFile },
      { name: agentFile, size: 0 },
      { profile: page.searchParams.get('profile') ?? '', pageSize1g: page.searchParams.get('pageSize1g') === '1' },
    );
  }

  const root = document.getElementById('root');
  if (root === null) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <StoreProvider store={store}>
          <ClientProvider actions={actions}>
            <ImportProvider actions={fileActions}>
              <App />
            </ImportProvider>
          </ClientProvider>
        </StoreProvider>
      </I18nextProvider>
    </StrictMode>,
  );
}
