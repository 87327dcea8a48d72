import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTimeline } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';

export interface Marks {
  readonly a: number | undefined;
  readonly b: number | undefined;
  /** Both points, once both are marked (the store's compare range). */
  readonly compare: { readonly from: number; readonly to: number } | undefined;
  mark(which: 'a' | 'b', seq: number): void;
}

/**
 * Points A and B for Compare. One mark alone lives here; with both, the range goes to the store
 * (`compare`), which a reset of the host clears, and the marks go with it.
 */
export function useMarks(): Marks {
  const timeline = useTimeline();
  const compare = useAppStore((state) => state.compare);
  const setCompare = useAppStore((state) => state.setCompare);
  const [local, setLocal] = useState<{ a?: number; b?: number }>({});
  const inRange = (seq: number | undefined) =>
    seq !== undefined && timeline !== undefined && seq >= timeline.firstSeq && seq <= timeline.lastSeq ? seq : undefined;
  const wasReset = local.a !== undefined && local.b !== undefined && compare === undefined;
  const a = wasReset ? undefined : inRange(local.a);
  const b = wasReset ? undefined : inRange(local.b);
  return {
    a,
    b,
    compare: a !== undefined && b !== undefined ? compare : undefined,
    mark: (which, seq) => {
      const next = { ...(a === undefined ? {} : { a }), ...(b === undefined ? {} : { b }), [which]: seq };
      setLocal(next);
      if (next.a !== undefined && next.b !== undefined) setCompare({ from: next.a, to: next.b });
    },
  };
}

/** Flags above the slider where A and B stand. */
export function CompareMarks({ marks, first, last }: { marks: Marks; first: number; last: number }) {
  const { t } = useTranslation();
  const span = Math.max(1, last - first);
  const flag = (name: 'A' | 'B', seq: number | undefined) =>
    seq === undefined ? null : (
      <span
        className={`tt-mark tt-mark-${name.toLowerCase()}`}
        style={{ left: `${((seq - first) / span) * 100}%` }}
        title={t('timeTravel.markAt', { name, seq })}
      >
        {name}
      </span>
    );
  return (
    <>
      {flag('A', marks.a)}
      {flag('B', marks.b)}
    </>
  );
}
