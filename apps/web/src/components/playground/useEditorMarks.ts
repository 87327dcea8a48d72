import type { CompileResult, Diagnostic } from '@pagelens/core';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RunView } from '../../model/playground/controller.ts';
import { type GutterMark, gutterMarks } from '../../model/playground/gutter-model.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import type { EditorMarks } from './editor-marks.ts';

interface Checked {
  readonly code: CompileResult;
  readonly setup: CompileResult | undefined;
}

const shown = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.severity !== 'note');

/**
 * The marks of the code and setup editors: the compiler's before anything ran, the execution's
 * after; the paused line, the error line and the line the time cursor shows.
 */
export function useEditorMarks(run: RunView, checked: Checked, lineAtSeq: (seq: number) => number | undefined) {
  const { t } = useTranslation();
  const cursor = useAppStore((state) => state.cursor);
  const describe = useCallback(
    (mark: GutterMark) => {
      const head = `${t(`playground.gutter.${mark.kind}`)} · ${mark.executed ? t('playground.gutter.ran', { count: mark.hits }) : t('playground.gutter.notRun')}`;
      const lines = mark.details.map((d) => (d.count > 1 ? `${d.text} ${t('playground.gutter.repeat', { count: d.count })}` : d.text));
      return [head, ...lines, ...(mark.executed ? [t('playground.gutter.clickHint')] : [])].join('\n');
    },
    [t],
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
      describe,
    };
  }, [run, idle, checked, describe]);
  return { codeMarks, setupMarks };
}
