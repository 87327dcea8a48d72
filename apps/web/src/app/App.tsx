import { useEffect } from 'react';
import { ConnectionPanel } from '../components/ConnectionStatus.tsx';
import { FileDrop } from '../components/import/FileDrop.tsx';
import { ImportStatus } from '../components/import/ImportStatus.tsx';
import { NothingOpen } from '../components/import/NothingOpen.tsx';
import { ProfilerCsv } from '../components/import/ProfilerCsv.tsx';
import { Header } from '../components/shell/Header.tsx';
import { HelpOverlay } from '../components/shell/HelpOverlay.tsx';
import { Notices } from '../components/shell/Notices.tsx';
import { useAgent } from '../store/ClientContext.tsx';
import { selectConnection } from '../store/connection-slice.ts';
import { useAppStore } from '../store/useAppStore.ts';
import { Explorer } from './Explorer.tsx';
import { GlobalShortcuts } from './GlobalShortcuts.tsx';

/** This page again, as a viewer: same agent and token, `role=viewer`. */
function watchAsViewer(): void {
  const url = new URL(window.location.href);
  url.searchParams.set('role', 'viewer');
  window.location.assign(url.toString());
}

export function App() {
  const connection = useAppStore(selectConnection);
  const theme = useAppStore((state) => state.theme);
  const hasTimeline = useAppStore((state) => state.timeline !== undefined);
  // A recording, or the file pagelens open serves: there is no agent session to show the state of.
  const imported = useAppStore((state) => state.imported !== undefined || state.agentFile !== undefined);
  const agent = useAgent();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <div className="app" data-connection={connection.status}>
      <GlobalShortcuts />
      <FileDrop />
      <Header />
      <Notices />
      <main className="app-main">
        <ImportStatus />
        <ProfilerCsv />
        <NothingOpen />
        {!imported && <ConnectionPanel connection={connection} onRetry={agent.retry} onWatch={watchAsViewer} />}
        {(connection.status === 'connected' || hasTimeline) && <Explorer />}
      </main>
      <HelpOverlay />
    </div>
  );
}
