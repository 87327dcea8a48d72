import { compile, type FollowRun, scenarioById } from '@pagelens/core';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gutterMarks } from '../../model/playground/gutter-model.ts';
import type { PlaygroundFollow } from '../../store/follow-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { ArgumentsField, takesCommandLine } from './ArgumentsField.tsx';
import { CodeEditor, type EditorApi } from './CodeEditor.tsx';
import type { EditorMarks } from './editor-marks.ts';
import { FollowBar, followStatusText } from './FollowBar.tsx';
import { followedDoc } from './follow-wire.ts';
import { InputsPanel } from './InputsPanel.tsx';
import { ScenarioHostNote } from './ScenarioHostNote.tsx';
import { markSummary, shown } from './useEditorMarks.ts';

const ignore = () => {};

/**
 * The marks the driver sees: its run's, or before anything ran the compiler's (computed here from
 * the same code, so the driver does not send them).
 */
function useFollowMarks(run: FollowRun, code: string, setup: string, inputs: readonly string[], entry: string | undefined) {
  const { t } = useTranslation();
  const idle = run.status === 'idle';
  const checked = useMemo(() => {
    if (!idle) return undefined;
    return {
      code: compile(code, { inputs: [...inputs], ...(entry === undefined ? {} : { entry }) }).diagnostics,
      setup: setup.trim() === '' ? [] : compile(setup, { inputs: [...inputs] }).diagnostics,
    };
  }, [idle, code, setup, inputs, entry]);
  return useMemo(() => {
    const describe = (mark: Parameters<EditorMarks['describe']>[0]) => markSummary(t, mark).join('\n');
    const error = run.error;
    const marksFor = (inSetup: boolean): EditorMarks => ({
      gutter:
        checked === undefined ? (inSetup ? run.setupMarks : run.marks) : gutterMarks(undefined, inSetup ? checked.setup : checked.code),
      current: !inSetup && run.status === 'paused' ? run.line : undefined,
      error: error !== undefined && error.inSetup === inSetup && error.line > 0 ? { line: error.line, message: error.message } : undefined,
      timeLine: undefined,
      diagnostics: checked === undefined ? [] : shown(inSetup ? checked.setup : checked.code),
      describe,
    });
    return { codeMarks: marksFor(false), setupMarks: marksFor(true) };
  }, [t, run, checked]);
}

/** A viewer's playground while it follows the driver: the driver's document and run, read-only. */
export function FollowedPlayground({ playground }: { playground: PlaygroundFollow }) {
  const { t, i18n } = useTranslation();
  const dark = useAppStore((s) => s.theme === 'dark');
  const language = i18n.language === 'zh' ? 'zh' : 'en';
  const doc = useMemo(() => followedDoc(playground.doc, language), [playground.doc, language]);
  const inputNames = useMemo(() => doc.inputs.map((input) => input.name), [doc.inputs]);
  const { run } = playground;
  const { codeMarks, setupMarks } = useFollowMarks(run, doc.code, doc.setup, inputNames, doc.entry);
  const [inputsOpen, setInputsOpen] = useState(false);
  const setupApi = useRef<EditorApi | null>(null);
  const missing = playground.doc.kind === 'scenario' && doc.code === '' ? playground.doc.id : undefined;
  const builtin = playground.doc.kind === 'scenario' ? scenarioById(playground.doc.id) : undefined;

  return (
    <section className="panel playground" data-testid="playground" data-following="true" aria-label={t('playground.title')}>
      <FollowBar />
      <div className="pl-row">
        <span
          className="pl-follow-title"
          data-testid="pl-follow-scenario"
          data-scenario={playground.doc.kind === 'scenario' ? playground.doc.id : ''}
        >
          {doc.name}
        </span>
        <output
          className={`pl-status pl-follow-status pl-status-${run.status}`}
          data-testid="pl-follow-status"
          data-state={run.status}
          data-line={run.line}
          aria-live="polite"
        >
          <span className="pl-status-main">{followStatusText(t, run)}</span>
        </output>
      </div>
      {/* The host the driver's scenario declares, and how this one differs: a follower is told too (no reset button). */}
      {builtin !== undefined && <ScenarioHostNote key={builtin.id} scenario={builtin} />}
      {missing !== undefined && (
        <p className="pl-viewer-note" role="alert">
          {t('follow.unknownScenario', { id: missing })}
        </p>
      )}
      {(takesCommandLine(doc.code) || (doc.args ?? '') !== '') && <ArgumentsField args={doc.args ?? ''} editable={false} />}
      <InputsPanel
        inputs={doc.inputs}
        setup={doc.setup}
        editable={false}
        dark={dark}
        setupMarks={setupMarks}
        setupApi={setupApi}
        open={inputsOpen}
        onToggle={setInputsOpen}
        onInputs={ignore}
        onSetup={ignore}
      />
      <CodeEditor
        value={doc.code}
        onChange={ignore}
        readOnly
        dark={dark}
        marks={codeMarks}
        label={t('follow.code')}
        testId="pl-editor"
        className="pl-editor-code"
      />
    </section>
  );
}
