import { type KeyboardEvent, type MouseEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CallChoices, type CallFilter, FilteredCalls, NO_FILTER } from '../../model/log/call-filter.ts';
import { callRow } from '../../model/log/call-rows.ts';
import { callPosition, isTargetKind, lastAtOrBefore } from '../../model/log/effects.ts';
import { atBottom, navigate, rowWindow, scrollToRow } from '../../model/log/windowing.ts';
import { callAtSeq, callEndsOf } from '../../model/time-travel/call-steps.ts';
import { useCursorSeq, useFormat, useTimeline } from '../../store/hooks.ts';
import { selectSelection } from '../../store/selection-slice.ts';
import { selectProcessFilter } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { LogRow, rowLabels } from './LogRow.tsx';
import { LogToolbar } from './LogToolbar.tsx';
import { useStackFilter, useStoryCalls, useViewportHeight } from './log-hooks.ts';
import './log.css';

/** Row height in CSS px (two text lines); the windowing needs every row the same height. */
const ROW_HEIGHT = 42;

/**
 * Every call of the session, newest at the bottom: arguments as people read them, the ACL result,
 * the rule IDs behind it and what it changed. Only the rows in view are in the DOM, so tens of
 * thousands of calls scroll smoothly; while live and scrolled to the end it follows new calls.
 */
export function OperationLogView() {
  const { t } = useTranslation();
  const timeline = useTimeline();
  const cursor = useAppStore((state) => state.cursor);
  const cursorSeq = useCursorSeq();
  const selection = useAppStore(selectSelection);
  const select = useAppStore((state) => state.select);
  const setCursor = useAppStore((state) => state.setCursor);
  const prefs = useFormat();
  const labels = useMemo(() => rowLabels(t), [t]);
  const [ownFilter, setFilter] = useState<CallFilter>(NO_FILTER);
  // The processes panel's choice narrows the log's own filter to one process.
  const processFilter = useAppStore(selectProcessFilter);
  const setProcessFilter = useAppStore((state) => state.setProcessFilter);
  // An imported session's stack filter (the recording panel's, shared with the block lists) narrows it too.
  const stack = useStackFilter();
  const stackText = useAppStore((state) => state.stackFilter);
  const setStackFilter = useAppStore((state) => state.setStackFilter);
  const imported = useAppStore((state) => state.imported !== undefined);
  const filter = useMemo(() => {
    const withPid = processFilter === undefined ? ownFilter : { ...ownFilter, pid: processFilter };
    return stack === undefined ? withPid : { ...withPid, stack };
  }, [ownFilter, processFilter, stack]);
  // The toolbar edits the log's own filter; its Clear also drops the process (the panel's choice) and the stack text.
  const changeFilter = (next: CallFilter) => {
    if (next === NO_FILTER) {
      setProcessFilter(undefined);
      setStackFilter('');
    }
    setFilter({ fn: next.fn, result: next.result, text: next.text });
  };
  const filtered = useRef(new FilteredCalls());
  const menus = useRef(new CallChoices());
  const scroller = useRef<HTMLDivElement>(null);
  const viewport = useViewportHeight(scroller);
  const [scrollTop, setScrollTop] = useState(0);
  const [following, setFollowing] = useState(true);
  const storyCalls = useStoryCalls(timeline, selection);

  const events = timeline?.events ?? [];
  const calls = timeline?.calls ?? [];
  const positions = filtered.current.update(events, calls, filter);
  const count = positions.length;
  const ends = callEndsOf(events, calls);
  const profiles = timeline?.live.devices.map((device) => device.profile) ?? [];
  const choices = menus.current.update(events, calls);
  // While following live calls the rows shown are the last ones, whatever the last scroll event said.
  const followingLive = cursor === 'live' && following;
  const win = rowWindow({ scrollTop: followingLive ? Number.POSITIVE_INFINITY : scrollTop, viewport, rowHeight: ROW_HEIGHT, count });

  const cursorCall = cursor === 'live' ? calls.length - 1 : callAtSeq(ends, cursorSeq);
  const cursorRow = lastAtOrBefore(positions, cursorCall);
  const selectedCall = selection?.kind === 'call' ? callPosition(events, calls, selection.id) : -1;
  const selectedAt = selectedCall < 0 ? -1 : lastAtOrBefore(positions, selectedCall);
  const selectedRow = selectedAt >= 0 && positions[selectedAt] === selectedCall ? selectedAt : -1;
  const activeRow = selectedRow >= 0 ? selectedRow : cursor === 'live' ? undefined : cursorRow;

  // Follow new calls while live and at the bottom; while travelling, keep the cursor's call in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: new rows (count) must scroll a following log to the end
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    if (cursor === 'live') {
      if (following) element.scrollTop = element.scrollHeight;
    } else {
      if (cursorRow >= 0) element.scrollTop = scrollToRow(cursorRow, element.scrollTop, element.clientHeight, ROW_HEIGHT);
      // The position was not tracked while following (see onScroll): window the rows from where the list is now.
      setScrollTop(element.scrollTop);
    }
  }, [count, cursor, cursorRow, following]);

  const choose = (position: number | undefined) => {
    if (position === undefined) return;
    const event = events[calls[position] ?? -1];
    if (event === undefined) return;
    select({ kind: 'call', id: event.seq });
    setCursor(ends[position] ?? event.seq);
  };

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!(event.target instanceof Element)) return;
    const rowElement = event.target.closest('[data-seq]');
    if (!(rowElement instanceof HTMLElement)) return;
    const position = callPosition(events, calls, Number(rowElement.dataset.seq));
    const effect = event.target.closest('[data-effect-kind]');
    if (effect instanceof HTMLElement && isTargetKind(effect.dataset.effectKind)) {
      const device = effect.dataset.effectDevice === undefined ? undefined : Number(effect.dataset.effectDevice);
      select({ kind: effect.dataset.effectKind, id: Number(effect.dataset.effectId), ...(device === undefined ? {} : { device }) });
      setCursor(ends[position] ?? 'live');
      return;
    }
    choose(position);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const pageRows = Math.max(1, Math.floor(viewport / ROW_HEIGHT) - 1);
    const next = event.key === 'Enter' ? (activeRow ?? count - 1) : navigate(event.key, activeRow, count, pageRows);
    if (next === undefined || count === 0) return;
    event.preventDefault();
    event.stopPropagation();
    choose(positions[next]);
    const element = scroller.current;
    if (element !== null) element.scrollTop = scrollToRow(next, element.scrollTop, element.clientHeight, ROW_HEIGHT);
  };

  const onScroll = () => {
    const element = scroller.current;
    if (element === null) return;
    const bottom = atBottom(element.scrollTop, element.clientHeight, element.scrollHeight);
    if (bottom !== following) setFollowing(bottom);
    // Following live, the window does not depend on the position: the scroll that following causes for
    // every batch of calls would otherwise render the log a second time.
    if (!(bottom && cursor === 'live')) setScrollTop(element.scrollTop);
  };

  const rows = [];
  for (let index = win.start; index < win.end; index += 1) {
    const position = positions[index] ?? -1;
    const row = callRow(events, calls[position] ?? -1, profiles);
    if (row === undefined) continue;
    rows.push(
      <LogRow
        key={index % win.slots}
        row={row}
        labels={labels}
        prefs={prefs}
        top={index * ROW_HEIGHT}
        selected={index === selectedRow}
        atCursor={cursor !== 'live' && index === cursorRow}
        future={cursor !== 'live' && position > cursorCall}
        related={storyCalls.has(row.call.seq)}
      />,
    );
  }

  return (
    <section className="panel log-view" data-testid="log" aria-label={t('log.title')}>
      <LogToolbar
        filter={filter}
        onFilter={changeFilter}
        fns={choices.fns}
        errors={choices.errors}
        shown={count}
        total={calls.length}
        {...(imported ? { stackText, onStackText: setStackFilter } : {})}
      />
      <div className="log-head" aria-hidden="true">
        <span>{t('log.column.seq')}</span>
        <span>{t('log.column.process')}</span>
        <span>{t('log.column.call')}</span>
        <span className="log-duration">{t('log.column.duration')}</span>
      </div>
      {calls.length === 0 ? (
        <div className="log-empty" data-testid="log-empty">
          <p>{t('log.empty.title')}</p>
          <p className="muted">{t('log.empty.help')}</p>
        </div>
      ) : count === 0 ? (
        <div className="log-empty" data-testid="log-empty">
          <p>{t('log.empty.filtered')}</p>
          <button
            type="button"
            onClick={() => {
              setFilter(NO_FILTER);
              setProcessFilter(undefined);
            }}
          >
            {t('log.filter.clear')}
          </button>
        </div>
      ) : null}
      <div
        ref={scroller}
        className="log-scroll"
        role="listbox"
        tabIndex={0}
        aria-label={t('log.listLabel')}
        aria-activedescendant={selectedRow >= 0 ? `log-row-${events[calls[positions[selectedRow] ?? -1] ?? -1]?.seq}` : undefined}
        onScroll={onScroll}
        onClick={onClick}
        onKeyDown={onKeyDown}
        data-testid="log-list"
        hidden={count === 0}
      >
        <div className="log-canvas" style={{ height: win.total }}>
          {rows}
        </div>
      </div>
      {cursor === 'live' && !following && count > 0 && (
        <button
          type="button"
          className="log-jump"
          onClick={() => {
            setFollowing(true);
            const element = scroller.current;
            if (element !== null) element.scrollTop = element.scrollHeight;
          }}
        >
          {t('log.jumpToLatest')}
        </button>
      )}
      {cursor !== 'live' && <p className="log-travel muted">{t('log.travelling', { seq: cursorSeq })}</p>}
    </section>
  );
}
