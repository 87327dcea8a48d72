import type { HostState } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { useCursorState } from '../../store/hooks.ts';
import { CopyTimelinePanel } from './CopyTimelinePanel.tsx';
import { HostBuffersPanel } from './HostBuffersPanel.tsx';
import { useCopyData } from './useCopyData.ts';
import './host-copies.css';

function HostCopies({ state }: { state: HostState }) {
  const data = useCopyData(state);
  return (
    <>
      <HostBuffersPanel state={state} relatedBuffers={data.relatedBuffers} />
      <CopyTimelinePanel data={data} state={state} />
    </>
  );
}

/** View 5: host buffers (pageable, pinned, registered) and the per-stream copy timeline, at the time cursor. */
export function HostCopiesView() {
  const { t } = useTranslation();
  const state = useCursorState();
  return (
    <section className="host-copies" data-testid="host-copies">
      {state === undefined ? <p className="muted">{t('shell.loading')}</p> : <HostCopies state={state} />}
    </section>
  );
}
