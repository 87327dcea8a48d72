import { compile } from '@pagelens/core';
import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultInputValue, guessInputType } from '../../model/playground/playground-doc.ts';
import { loadSaved, type SavedScenario } from '../../model/playground/saved-scenarios.ts';
import { selectFollowMode } from '../../store/follow-slice.ts';
import { selectIsDriver } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { ArgumentsField, takesCommandLine } from './ArgumentsField.tsx';
import { CodeEditor, type EditorApi } from './CodeEditor.tsx';
import { FollowBar } from './FollowBar.tsx';
import { FollowedPlayground } from './FollowedPlayground.tsx';
import { InputsPanel } from './InputsPanel.tsx';
import { LinkNote, ResetHostOffer, TimeNote } from './PlaygroundNotes.tsx';
import { ProblemsPanel } from './ProblemsPanel.tsx';
import { RunControls } from './RunControls.tsx';
import { OutputPanel, VariablesPanel } from './RunPanels.tsx';
import { browserStorage } from './SavePanels.tsx';
import { ScenarioBar } from './ScenarioBar.tsx';
import { useEditorMarks } from './useEditorMarks.ts';
import { usePlayground, usePlaygroundController } from './usePlayground.ts';
import './playground.css';

/**
 * The playground: a scenario's ACL C code run statement by statement through the agent, so the
 * page map, log and every other view follow each step; the time cursor can go back to any line.
 * A viewer following the driver sees the driver's playground instead of its own.
 */
export function PlaygroundView() {
  const mode = useAppStore(selectFollowMode);
  const driver = useAppStore((s) => s.driverPlayground);
  return mode === 'following' && driver !== null ? <FollowedPlayground playground={driver} /> : <OwnPlayground />;
}

function OwnPlayground() {
  const { t } = useTranslation();
  const store = useStoreApi();
  const controller = usePlaygroundController();
  const doc = usePlayground((s) => s.doc);
  const source = usePlayground((s) => s.source);
  const run = usePlayground((s) => s.run);
  const link = usePlayground((s) => s.link);
  const isDriver = useAppStore(selectIsDriver);
  // A viewer that detached explores with code of its own: it may change it (only the driver runs code).
  const exploring = useAppStore(selectFollowMode) === 'detached';
  const dark = useAppStore((s) => s.theme === 'dark');
  const editor = useRef<EditorApi | null>(null);
  const setupEditor = useRef<EditorApi | null>(null);
  const [saved, setSaved] = useState(() => loadSaved(browserStorage()));
  // Collapsed by default: its summary line already shows the inputs and the setup's code.
  const [inputsOpen, setInputsOpen] = useState(false);
  const [offerHostReset, setOfferHostReset] = useState(false);
  const [timeNote, setTimeNote] = useState<string | undefined>(undefined);

  // The code is checked as it is typed (deferred, so typing stays smooth) to show errors before running.
  const deferred = useDeferredValue(doc);
  const checked = useMemo(() => {
    const inputs = deferred.inputs.map((input) => input.name);
    const code = compile(deferred.code, { inputs, ...(deferred.entry === undefined ? {} : { entry: deferred.entry }) });
    const setup = deferred.setup.trim() === '' ? undefined : compile(deferred.setup, { inputs });
    return { code, setup, blocked: !code.ok || (setup !== undefined && !setup.ok) };
  }, [deferred]);

  const editable = (isDriver || exploring) && run.status !== 'running' && run.status !== 'paused';
  const idle = run.status === 'idle';
  const { codeMarks, setupMarks } = useEditorMarks(run, checked, (seq) => controller.lineAtSeq(seq), controller.seqs);

  const go = (command: () => Promise<void>) => {
    setOfferHostReset(false);
    setTimeNote(undefined);
    if (run.status === 'finished' || run.status === 'error') controller.reset();
    void command();
  };
  const moveTime = (line: number) => {
    const seq = controller.seqAfterLine(line);
    if (seq === undefined) {
      const ran = run.codeMarks.some((m) => m.line === line && m.executed);
      setTimeNote(ran ? t('playground.time.notHeld') : t('playground.time.notRun', { line }));
      return;
    }
    setTimeNote(undefined);
    store.getState().setCursor(seq);
  };
  const canRun = isDriver && !checked.blocked;
  const actions = {
    run: () => go(() => controller.run()),
    step: () => go(() => controller.step()),
    stepOver: () => go(() => controller.stepOver()),
    runToCursor: () => go(() => controller.runToLine(editor.current?.cursorLine() ?? 1)),
    stop: () => controller.stop(),
    reset: () => {
      controller.reset();
      setTimeNote(undefined);
      setOfferHostReset(true);
    },
    timeLine: () => moveTime(editor.current?.cursorLine() ?? 1),
  };
  const addInput = (name: string) => {
    const ctype = guessInputType(name);
    const value = defaultInputValue(ctype);
    controller.edit({ inputs: [...doc.inputs, value === undefined ? { name, ctype } : { name, ctype, value }] });
    setInputsOpen(true);
  };
  const savedList: readonly SavedScenario[] = saved.ok ? saved.value : [];

  return (
    <section className="panel playground" data-testid="playground" aria-label={t('playground.title')}>
      <FollowBar />
      {!isDriver && (
        <p className="pl-viewer-note" role="note">
          {t(exploring ? 'follow.detachedNote' : 'playground.viewerNote')}
        </p>
      )}
      <ScenarioBar
        doc={doc}
        source={source}
        saved={savedList}
        savedProblem={saved.ok ? undefined : saved.problem}
        canReplace={editable || (!isDriver && run.status === 'idle')}
        onOpen={(next, from) => {
          if (!controller.open(next, from)) return;
          if (from.kind === 'shared') controller.setLink({ ok: true, name: next.name });
        }}
        onSavedChange={(list, current) => {
          setSaved({ ok: true, value: list });
          if (current !== undefined) controller.setSource(current);
        }}
      />
      <LinkNote link={link} onDismiss={() => controller.setLink(undefined)} />
      <RunControls
        run={run}
        actions={actions}
        canRun={canRun}
        canDrive={isDriver}
        blocked={checked.blocked}
        functions={[...checked.code.program.functions.keys()]}
        entry={doc.entry}
        onEntry={editable ? (entry) => controller.setEntry(entry) : undefined}
      />
      {offerHostReset && <ResetHostOffer onDone={() => setOfferHostReset(false)} />}
      <TimeNote controller={controller} note={timeNote} onLive={() => setTimeNote(undefined)} />
      <ProblemsPanel
        code={idle ? checked.code.diagnostics : []}
        setup={idle ? (checked.setup?.diagnostics ?? []) : []}
        error={run.error}
        canEdit={editable}
        onGoTo={(line, column, inSetup) => {
          if (inSetup) setInputsOpen(true);
          (inSetup ? setupEditor : editor).current?.goTo(line, column);
        }}
        onAddInput={addInput}
      />
      {(takesCommandLine(doc.code) || (doc.args ?? '') !== '') && (
        <ArgumentsField args={doc.args ?? ''} editable={editable} onArgs={(args) => controller.edit({ args })} />
      )}
      <InputsPanel
        inputs={doc.inputs}
        setup={doc.setup}
        editable={editable}
        dark={dark}
        setupMarks={setupMarks}
        setupApi={setupEditor}
        open={inputsOpen}
        onToggle={setInputsOpen}
        onInputs={(inputs) => controller.edit({ inputs })}
        onSetup={(setup) => controller.edit({ setup })}
      />
      <CodeEditor
        value={doc.code}
        onChange={(code) => controller.edit({ code })}
        readOnly={!editable}
        dark={dark}
        marks={codeMarks}
        label={t('playground.editor.label')}
        testId="pl-editor"
        className="pl-editor-code"
        onGutterClick={moveTime}
        keys={isDriver ? actions : {}}
        apiRef={editor}
      />
      <div className="pl-bottom">
        <VariablesPanel variables={run.variables} />
        <OutputPanel output={run.output} />
      </div>
    </section>
  );
}
