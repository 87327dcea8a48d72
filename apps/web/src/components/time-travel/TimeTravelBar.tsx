import { formatInteger } from '@pagelens/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { duration } from '../../model/format.ts';
import { callAtSeq, callEndsOf } from '../../model/time-travel/call-steps.ts';
import { useCursorSeq, useCursorState, useTimeline } from '../../store/hooks.ts';
import { selectSession } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { CompareMarks, useMarks } from './CompareMarks.tsx';
import { ComparePanel } from './ComparePanel.tsx';
import { HistoryStatus } from './HistoryStatus.tsx';
import { TimeIcon, type TimeIconName } from './TimeIcon.tsx';
import { usePlayer, useTimeControls } from './useTimeControls.ts';
import './time-travel.css';

const GROUP = 'shell.help.groups.time';

interface TimeButtonProps {
  /** The glyph; the button's label is `timeTravel.<icon>` too. */
  readonly icon: TimeIconName;
  readonly onClick: () => void;
  readonly disabled: boolean;
  /** Set for the play button, which toggles. */
  readonly pressed?: boolean;
  readonly className?: string;
  readonly testId?: string;
}

function TimeButton({ icon, onClick, disabled, pressed, className, testId }: TimeButtonProps) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={className}
      onClick={onClick}
      disabled={disabled}
      aria-pressed={pressed}
      title={t(`timeTravel.${icon}`)}
      aria-label={t(`timeTravel.${icon}`)}
      data-testid={testId}
    >
      <TimeIcon name={icon} />
    </button>
  );
}

/**
 * The time cursor over seq: step by call or event, play, jump back to live, and mark two points
 * to compare. Every view follows the cursor; this bar only moves it.
 */
export function TimeTravelBar() {
  const { t } = useTranslation();
  const timeline = useTimeline();
  const cursor = useAppStore((state) => state.cursor);
  const playing = useAppStore((state) => state.playing);
  const setCursor = useAppStore((state) => state.setCursor);
  const setPlaying = useAppStore((state) => state.setPlaying);
  const session = useAppStore(selectSession);
  const seq = useCursorSeq();
  const state = useCursorState();
  const controls = useTimeControls();
  const marks = useMarks();
  const [compareOpen, setCompareOpen] = useState(false);
  usePlayer(playing);

  useShortcut({ key: 'ArrowLeft', shift: false, label: 'timeTravel.keys.backCall', group: GROUP }, () => controls.stepCall(-1));
  useShortcut({ key: 'ArrowRight', shift: false, label: 'timeTravel.keys.forwardCall', group: GROUP }, () => controls.stepCall(1));
  useShortcut({ key: 'ArrowLeft', shift: true, label: 'timeTravel.keys.backEvent', group: GROUP }, () => controls.stepEvent(-1));
  useShortcut({ key: 'ArrowRight', shift: true, label: 'timeTravel.keys.forwardEvent', group: GROUP }, () => controls.stepEvent(1));
  useShortcut({ key: ' ', label: 'timeTravel.keys.play', group: GROUP }, controls.togglePlay);
  useShortcut({ key: 'l', label: 'timeTravel.keys.live', group: GROUP }, controls.live);
  useShortcut({ key: 'a', label: 'timeTravel.keys.markA', group: GROUP }, () => marks.mark('a', seq));
  useShortcut({ key: 'b', label: 'timeTravel.keys.markB', group: GROUP }, () => marks.mark('b', seq));
  useShortcut({ key: 'Escape', label: 'timeTravel.keys.closeCompare', group: GROUP }, () => setCompareOpen(false), compareOpen);

  if (timeline === undefined) return <section className="time-travel" data-testid="time-travel" />;
  const first = timeline.firstSeq;
  const last = timeline.lastSeq;
  const live = cursor === 'live';
  const ends = callEndsOf(timeline.events, timeline.calls);
  // Calls are numbered from the host's reset: those before the held history count too.
  const callNumber = callAtSeq(ends, seq) + 1 + timeline.callsBefore;
  // The host clock at the cursor: the latest time any event up to it reached (calls end after their effects start).
  const time = state?.time ?? timeline.live.time;
  const observed = session?.host.provenance === 'observed';
  const compare = marks.compare;

  return (
    <section className="time-travel" data-testid="time-travel" data-live={live} data-playing={playing} aria-label={t('timeTravel.title')}>
      <div className="tt-buttons">
        <TimeButton icon="backCall" onClick={() => controls.stepCall(-1)} disabled={seq <= first} testId="tt-back-call" />
        <TimeButton icon="backEvent" onClick={() => controls.stepEvent(-1)} disabled={seq <= first} />
        <TimeButton
          icon={playing ? 'pause' : 'play'}
          onClick={() => setPlaying(!playing)}
          disabled={timeline.calls.length === 0}
          pressed={playing}
          className="tt-play"
          testId="tt-play"
        />
        <TimeButton icon="forwardEvent" onClick={() => controls.stepEvent(1)} disabled={live} />
        <TimeButton icon="forwardCall" onClick={() => controls.stepCall(1)} disabled={live} testId="tt-forward-call" />
      </div>
      <div className="tt-slider">
        <input
          type="range"
          min={first}
          max={Math.max(first, last)}
          step={1}
          value={seq}
          disabled={last <= first}
          onChange={(event) => {
            setPlaying(false);
            setCursor(Number(event.target.value));
          }}
          aria-label={t('timeTravel.slider')}
          aria-valuetext={t('timeTravel.position', { seq: formatInteger(seq), last: formatInteger(last) })}
          data-testid="tt-slider"
        />
        <CompareMarks marks={marks} first={first} last={last} />
      </div>
      <span className="tt-position mono" data-testid="tt-position">
        <span title={t('timeTravel.seqTitle')}>{t('timeTravel.position', { seq: formatInteger(seq), last: formatInteger(last) })}</span>
        <span className="muted" title={t('timeTravel.callTitle')}>
          {t('timeTravel.callPosition', {
            call: formatInteger(callNumber),
            calls: formatInteger(timeline.calls.length + timeline.callsBefore),
          })}
        </span>
        <span className="muted" title={t(observed ? 'timeTravel.wallTime' : 'timeTravel.virtualTime')}>
          t = {duration(time)}
        </span>
        <HistoryStatus timeline={timeline} />
      </span>
      <button
        type="button"
        className={`tt-live${live ? ' is-live' : ''}`}
        onClick={controls.live}
        aria-pressed={live}
        title={t('timeTravel.liveTitle')}
        data-testid="tt-live"
      >
        <span className="dot" aria-hidden="true" />
        {live ? t('timeTravel.live') : t('timeTravel.returnLive')}
      </button>
      <span className="tt-compare">
        <button type="button" onClick={() => marks.mark('a', seq)} title={t('timeTravel.markATitle')} data-testid="tt-mark-a">
          {t('timeTravel.markA')}
        </button>
        <button type="button" onClick={() => marks.mark('b', seq)} title={t('timeTravel.markBTitle')} data-testid="tt-mark-b">
          {t('timeTravel.markB')}
        </button>
        <button
          type="button"
          onClick={() => setCompareOpen(!compareOpen)}
          disabled={compare === undefined}
          aria-expanded={compareOpen}
          title={compare === undefined ? t('timeTravel.compareHint') : t('timeTravel.compareTitle')}
          data-testid="tt-compare"
        >
          {t('timeTravel.compareButton')}
        </button>
      </span>
      {compareOpen && compare !== undefined && <ComparePanel from={compare.from} to={compare.to} onClose={() => setCompareOpen(false)} />}
    </section>
  );
}
