import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { App } from './app/App.tsx';
import { createI18n, initialLanguage } from './i18n/setup.ts';
import { AgentClient, browserEnvironment } from './net/agent-client.ts';
import { createAppStore } from './store/app-store.ts';
import { StoreProvider } from './store/StoreProvider.tsx';
import './styles/app.css';

const page = new URL(window.location.href);
const store = createAppStore();
const i18n = createI18n(initialLanguage(window.localStorage, navigator.language));
document.documentElement.lang = i18n.language === 'zh' ? 'zh-CN' : 'en';

let client = new AgentClient({
  pageUrl: page.toString(),
  token: page.searchParams.get('token') ?? undefined,
  role: page.searchParams.get('role') === 'viewer' ? 'viewer' : 'driver',
  store,
  environment: browserEnvironment(),
});
client.start();

function retry(): void {
  client.stop();
  client = new AgentClient({
    pageUrl: page.toString(),
    token: page.searchParams.get('token') ?? undefined,
    role: page.searchParams.get('role') === 'viewer' ? 'viewer' : 'driver',
    store,
    environment: browserEnvironment(),
  });
  client.start();
}

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <StoreProvider store={store}>
        <App onRetry={retry} />
      </StoreProvider>
    </I18nextProvider>
  </StrictMode>,
);
