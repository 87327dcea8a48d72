import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LinkStatus, PlaygroundController } from '../../model/playground/controller.ts';
import { liveObjectCount } from '../../model/playground/host-objects.ts';
import { useAgent } from '../../store/ClientContext.tsx';
import { useTimeline } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { ConfirmButtons } from '../common/ConfirmButtons.tsx';
import { useProblemText } from './SavePanels.tsx';

/** Whether the last shared link opened, or why not. */
export function LinkNote({ link, onDismiss }: { link: LinkStatus | undefined; onDismiss: () => void }) {
  const { t } = useTranslation();
  const problemText = useProblemText();
  if (link === undefined) return null;
  return (
    <p className={`pl-note ${link.ok ? 'pl-ok' : 'pl-error'}`} role={link.ok ? 'status' : 'alert'} data-testid="pl-link-note">
      <span>
        {link.ok ? t('playground.share.loaded', { name: link.name }) : t('playground.share.failed', { reason: problemText(link.problem) })}
      </span>
      <button type="button" className="pl-icon" onClick={onDismiss} aria-label={t('playground.share.close')}>
        ×
      </button>
    </p>
  );
}

/**
 * After Reset: what the run left on the host, with a host reset behind a confirmation (it tears
 * down everything on the agent, for every view and viewer).
 */
export function ResetHostOffer({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const agent = useAgent();
  const timeline = useTimeline();
  const [confirming, setConfirming] = useState(false);
  const count = timeline === undefined ? 0 : liveObjectCount(timeline.live);
  if (count === 0) return null;
  return (
    <div className="pl-note pl-reset-offer" data-testid="pl-reset-offer">
      {confirming ? (
        <>
          <span role="alert">{t('playground.reset.confirm')}</span>
          <ConfirmButtons
            confirm={t('playground.reset.confirmButton')}
            cancel={t('playground.reset.cancel')}
            dangerClass="pl-danger"
            testId="pl-reset-host-confirm"
            onConfirm={() => {
              agent.reset();
              onDone();
            }}
            onCancel={() => setConfirming(false)}
          />
        </>
      ) : (
        <>
          <span>{t('playground.reset.hostOffer', { count })}</span>
          <button type="button" onClick={() => setConfirming(true)} data-testid="pl-reset-host">
            {t('playground.reset.hostButton')}
          </button>
          <button type="button" onClick={onDone}>
            {t('playground.reset.dismiss')}
          </button>
        </>
      )}
    </div>
  );
}

interface TimeNoteProps {
  readonly controller: PlaygroundController;
  /** A message about the last attempt to move the time cursor (a line that never ran…). */
  readonly note: string | undefined;
  readonly onLive: () => void;
}

/** Which line's state the views show while the time cursor is not live, with the way back. */
export function TimeNote({ controller, note, onLive }: TimeNoteProps) {
  const { t } = useTranslation();
  const cursor = useAppStore((state) => state.cursor);
  const setCursor = useAppStore((state) => state.setCursor);
  if (cursor === 'live') {
    return note === undefined ? null : (
      <p className="pl-note pl-time" role="status" data-testid="pl-time-note">
        {note}
      </p>
    );
  }
  const line = controller.lineAtSeq(cursor);
  return (
    <p className="pl-note pl-time" role="status" data-testid="pl-time-note" data-line={line}>
      <span>{line === undefined ? t('playground.time.showingOther') : t('playground.time.showing', { line })}</span>
      <button
        type="button"
        onClick={() => {
          setCursor('live');
          onLive();
        }}
      >
        {t('playground.time.live')}
      </button>
    </p>
  );
}
