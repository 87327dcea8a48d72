import type { CompileResult, Diagnostic, Reason } from '@pagelens/core';
import type { TFunction } from 'i18next';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RunView } from '../../model/playground/controller.ts';
import { type GutterMark, gutterMarks } from '../../model/playground/gutter-model.ts';
import { lineEffects } from '../../model/playground/line-effects.ts';
import type { StepSeqMap } from '../../model/playground/step-seqs.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import type { EditorMarks } from './editor-marks.ts';

interface Checked {
  readonly code: CompileResult;
  readonly setup: CompileResult | undefined;
}

/** A decision reason in the current language with its rule IDs, as useReasonText renders it (kept stable across renders here). */
function reasonLine(t: TFunction, reason: Reason): string {
  const text = t(`reasons.${reason.code}`, { ...reason.values, defaultValue: reason.code });
  return reason.rules.length > 0 ? `${text} (${reason.rules.join(', ')})` : text;
}

/** A gutter mark's tooltip before the line's effects: its kind, how often it ran, what happened there. */
export function markSummary(t: TFunction, mark: GutterMark): string[] {
  const head = `${t(`playground.gutter.${mark.kind}`)} · ${mark.executed ? t('playground.gutter.ran', { count: mark.hits }) : t('playground.gutter.notRun')}`;
  return [head, ...mark.details.map((d) => (d.count > 1 ? `${d.text} ${t('playground.gutter.repeat', { count: d.count })}` : d.text))];
}

export const shown = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.severity !== 'note');

/**
 * The marks of the code and setup editors: the compiler's before anything ran, the execution's
 * after; the paused line, the error line and the line the time cursor shows.
 */
export function useEditorMarks(run: RunView, checked: Checked, lineAtSeq: (seq: number) => number | undefined, seqs?: StepSeqMap) {
  const { t } = useTranslation();
  const cursor = useAppStore((state) => state.cursor);
  const timeline = useAppStore((state) => state.timeline);
  // The replica's events for a step can arrive after the step settles: describe again when they do (not while running).
  const running = run.status === 'running';
  const settled = useAppStore((state) => (running ? -1 : state.version));
  // biome-ignore lint/correctness/useExhaustiveDependencies: `settled` rebuilds the tooltips once the replica holds a step's events (the timeline itself is mutable).
  const describe = useCallback(
    (mark: GutterMark, inSetup = false) => {
      // What the line's calls did, as the log explains it: pages, padding, waste, copy paths, with rule IDs.
      const effects =
        seqs === undefined || timeline === undefined || inSetup || !mark.executed
          ? []
          : lineEffects(
              seqs.points,
              seqs.start ?? 0,
              mark.line,
              timeline.events,
              timeline.live.devices.map((d) => d.profile),
            ).map((effect) =>
              t('playground.gutter.effect', { fn: effect.fn, text: effect.reasons.map((r) => reasonLine(t, r)).join('; ') }),
            );
      return [...markSummary(t, mark), ...effects, ...(mark.executed ? [t('playground.gutter.clickHint')] : [])].join('\n');
    },
    [t, seqs, timeline, settled],
  );
  const idle = run.status === 'idle';
  const timeLine = cursor === 'live' || idle ? undefined : lineAtSeq(cursor);
  const codeMarks = useMemo<EditorMarks>(() => {
    const error = run.error;
    return {
      gutter: idle ? gutterMarks(undefined, checked.code.diagnostics) : run.codeMarks,
      current: run.status === 'paused' ? run.line : undefined,
      error: error !== undefined && error.inSetup !== true && error.line > 0 ? { line: error.line, message: error.message } : undefined,
      timeLine,
      diagnostics: idle ? shown(checked.code.diagnostics) : [],
      describe,
    };
  }, [run, idle, checked, timeLine, describe]);
  const setupMarks = useMemo<EditorMarks>(() => {
    const error = run.error;
    const diagnostics = checked.setup?.diagnostics ?? [];
    return {
      gutter: idle ? gutterMarks(undefined, diagnostics) : run.setupMarks,
      current: undefined,
      error: error !== undefined && error.inSetup === true && error.line > 0 ? { line: error.line, message: error.message } : undefined,
      timeLine: undefined,
      diagnostics: idle ? shown(diagnostics) : [],
      describe: (mark: GutterMark) => describe(mark, true),
    };
  }, [run, idle, checked, describe]);
  return { codeMarks, setupMarks };
}
