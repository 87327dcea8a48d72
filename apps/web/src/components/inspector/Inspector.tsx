import { useTranslation } from 'react-i18next';
import { framesObservable } from '../../model/acl/backend.ts';
import type { Presence } from '../../model/inspector/story.ts';
import type { Target } from '../../model/log/effects.ts';
import { useCursorSeq } from '../../store/hooks.ts';
import { selectSelection } from '../../store/selection-slice.ts';
import { selectSession } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { SegmentBlocks } from '../import/SegmentBlocks.tsx';
import { ArgList, DecisionAndRelated, FactList } from './FactList.tsx';
import { StoryList } from './StoryList.tsx';
import { useInspection } from './useInspection.ts';
import './inspector.css';

function EmptyInspector() {
  const { t } = useTranslation();
  const framesKnown = useAppStore((state) => framesObservable(state.session?.host));
  return (
    <section className="panel inspector inspector-empty" data-testid="inspector" aria-label={t('inspector.title')}>
      <h2 className="inspector-title">{t('inspector.title')}</h2>
      <p>{t('inspector.empty.lead')}</p>
      <ul>
        <li>{t('inspector.empty.log')}</li>
        <li>{t('inspector.empty.maps')}</li>
        <li>{t('inspector.empty.keys')}</li>
      </ul>
      <p className="muted">{t(framesKnown ? 'inspector.empty.what' : 'inspector.empty.whatObserved')}</p>
    </section>
  );
}

function PresenceNote({ presence, isCall, onJump }: { presence: Presence; isCall: boolean; onJump: (seq: number) => void }) {
  const { t } = useTranslation();
  if (presence.status === 'present') return null;
  if (presence.status === 'unknown') {
    return (
      <p className="presence-note" data-testid="inspector-presence">
        {t('inspector.presence.unknown')}
      </p>
    );
  }
  const future = presence.status === 'future';
  const message = future
    ? t(isCall ? 'inspector.presence.callFuture' : 'inspector.presence.future', { seq: presence.seq })
    : t('inspector.presence.gone', { seq: presence.seq });
  return (
    <p className="presence-note" data-testid="inspector-presence" data-status={presence.status}>
      {message}{' '}
      <button type="button" className="link-button" onClick={() => onJump(future ? presence.seq : presence.seq - 1)}>
        {future ? t('inspector.presence.goCreated', { seq: presence.seq }) : t('inspector.presence.goBefore', { seq: presence.seq - 1 })}
      </button>
    </p>
  );
}

function SelectedInspector({ target }: { target: Target }) {
  const { t } = useTranslation();
  const select = useAppStore((state) => state.select);
  const setCursor = useAppStore((state) => state.setCursor);
  const session = useAppStore(selectSession);
  const cursorSeq = useCursorSeq();
  const model = useInspection(target);
  const provenance = session?.host.provenance ?? 'simulated';
  return (
    <section className="panel inspector" data-testid="inspector" data-kind={target.kind} aria-label={t('inspector.title')}>
      <header className="inspector-header">
        <h2 className="inspector-title">
          {t(`inspector.kind.${target.kind}`)} <span className="mono">#{target.id}</span>
        </h2>
        <span className={`provenance provenance-${provenance}`} title={t(`inspector.provenanceTitle.${provenance}`)}>
          {t(`common.provenance.${provenance}`)}
        </span>
        <button
          type="button"
          className="icon-button inspector-close"
          onClick={() => select(undefined)}
          aria-label={t('inspector.clear')}
          title={t('inspector.clear')}
        >
          ×
        </button>
      </header>
      <PresenceNote presence={model.presence} isCall={target.kind === 'call'} onJump={setCursor} />
      {model.inspection !== undefined && (
        <>
          <FactList facts={model.inspection.facts} onSelect={select} />
          {model.inspection.args !== undefined && <ArgList args={model.inspection.args} />}
          <DecisionAndRelated inspection={model.inspection} onSelect={select} />
        </>
      )}
      {model.made !== undefined && (
        <section className="inspector-section inspector-made" data-testid="inspector-made">
          <h3 className="section-title">
            <button type="button" className="link-button" onClick={() => model.made !== undefined && select(model.made.target)}>
              {t('inspector.made', { kind: t(`inspector.kind.${model.made.target.kind}`), id: model.made.target.id })}
            </button>
          </h3>
          <FactList facts={model.made.inspection.facts} onSelect={select} />
        </section>
      )}
      <SegmentBlocks target={target} />
      {target.kind !== 'frame' && <StoryList entries={model.story} cursorSeq={cursorSeq} onJump={setCursor} />}
    </section>
  );
}

/**
 * The selected object at the time cursor: its facts in units and exact bytes, the decision with
 * rule IDs, what is modeled, and its whole story, each step a way to travel there.
 */
export function Inspector() {
  const selection = useAppStore(selectSelection);
  return selection === undefined ? <EmptyInspector /> : <SelectedInspector key={`${selection.kind}-${selection.id}`} target={selection} />;
}
