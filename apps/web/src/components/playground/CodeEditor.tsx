import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { cpp } from '@codemirror/lang-cpp';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { Compartment, EditorState, Prec, type StateEffect } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { type RefObject, useEffect, useRef } from 'react';
import { type EditorMarks, editorMarks, setEditorMarks } from './editor-marks.ts';
import { editorTheme } from './editor-theme.ts';

/** Commands the editor runs on its own keys (the page's shortcuts do not fire while typing). */
export interface EditorKeys {
  readonly run?: () => void;
  readonly step?: () => void;
  readonly stepOver?: () => void;
  readonly runToCursor?: () => void;
  readonly stop?: () => void;
  readonly timeLine?: () => void;
}

export interface EditorApi {
  /** Puts the cursor on `line` (and `column`), scrolls it into view and focuses the editor. */
  goTo(line: number, column?: number): void;
  cursorLine(): number;
}

interface CodeEditorProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly readOnly: boolean;
  readonly dark: boolean;
  readonly marks: EditorMarks;
  /** Accessible name of the editing area. */
  readonly label: string;
  readonly testId: string;
  readonly onGutterClick?: (line: number) => void;
  readonly keys?: EditorKeys;
  readonly apiRef?: RefObject<EditorApi | null>;
  readonly className?: string;
}

/** A CodeMirror 6 editor for C, with the execution's marks in its gutter and on its lines. */
export function CodeEditor({
  value,
  onChange,
  readOnly,
  dark,
  marks,
  label,
  testId,
  onGutterClick,
  keys,
  apiRef,
  className,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, onGutterClick, keys });
  latest.current = { onChange, onGutterClick, keys };
  const compartments = useRef({ readOnly: new Compartment(), theme: new Compartment(), label: new Compartment() });
  const initial = useRef({ value, readOnly, dark, label });

  useEffect(() => {
    const parent = host.current;
    if (parent === null) return undefined;
    const { readOnly: ro, theme, label: aria } = compartments.current;
    const key = (name: keyof EditorKeys) => () => {
      const run = latest.current.keys?.[name];
      if (run === undefined) return false;
      run();
      return true;
    };
    const editor = new EditorView({
      parent,
      state: EditorState.create({
        doc: initial.current.value,
        extensions: [
          editorMarks((line) => latest.current.onGutterClick?.(line)),
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          cpp(),
          Prec.high(
            keymap.of([
              { key: 'Mod-Enter', run: key('run') },
              { key: 'F11', run: key('step') },
              { key: 'F10', run: key('stepOver') },
              { key: 'Mod-F10', run: key('runToCursor') },
              { key: 'Shift-F5', run: key('stop') },
              { key: 'Alt-g', run: key('timeLine') },
            ]),
          ),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          ro.of(EditorState.readOnly.of(initial.current.readOnly)),
          theme.of(editorTheme(initial.current.dark)),
          aria.of(EditorView.contentAttributes.of({ 'aria-label': initial.current.label })),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor === null || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.readOnly.reconfigure(EditorState.readOnly.of(readOnly)) });
  }, [readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.theme.reconfigure(editorTheme(dark)) });
  }, [dark]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.label.reconfigure(EditorView.contentAttributes.of({ 'aria-label': label })) });
  }, [label]);

  useEffect(() => {
    const editor = view.current;
    if (editor === null) return;
    const effects: StateEffect<unknown>[] = [setEditorMarks.of(marks)];
    const line = marks.current ?? marks.error?.line;
    if (line !== undefined && line >= 1 && line <= editor.state.doc.lines) {
      effects.push(EditorView.scrollIntoView(editor.state.doc.line(line).from, { y: 'nearest', yMargin: 48 }));
    }
    editor.dispatch({ effects });
  }, [marks]);

  useEffect(() => {
    if (apiRef === undefined) return undefined;
    apiRef.current = {
      goTo: (line, column = 1) => {
        const editor = view.current;
        if (editor === null || line < 1 || line > editor.state.doc.lines) return;
        const target = editor.state.doc.line(line);
        const at = Math.min(target.to, target.from + Math.max(0, column - 1));
        editor.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
        editor.focus();
      },
      cursorLine: () => {
        const editor = view.current;
        return editor === null ? 1 : editor.state.doc.lineAt(editor.state.selection.main.head).number;
      },
    };
    return () => {
      apiRef.current = null;
    };
  }, [apiRef]);

  return <div ref={host} className={`pl-editor ${className ?? ''}`} data-testid={testId} data-readonly={readOnly} />;
}
