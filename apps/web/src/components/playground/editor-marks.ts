import { type EditorState, type Range, RangeSet, StateEffect, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, GutterMarker, gutter, WidgetType } from '@codemirror/view';
import type { Diagnostic } from '@pagelens/core';
import type { GutterMark, MarkKind } from '../../model/playground/gutter-model.ts';

/** What the editor shows about the execution, set from React through one effect. */
export interface EditorMarks {
  readonly gutter: readonly GutterMark[];
  /** The line the execution is paused before. */
  readonly current: number | undefined;
  /** The line an execution error stopped on, with its message shown under it. */
  readonly error: { readonly line: number; readonly message: string } | undefined;
  /** The line whose state the time cursor shows, when it is not live. */
  readonly timeLine: number | undefined;
  /** Compiler diagnostics, underlined at line:column. */
  readonly diagnostics: readonly Diagnostic[];
  /** Hover text of a gutter mark, in the UI language. */
  readonly describe: (mark: GutterMark) => string;
}

export const NO_MARKS: EditorMarks = {
  gutter: [],
  current: undefined,
  error: undefined,
  timeLine: undefined,
  diagnostics: [],
  describe: () => '',
};

export const setEditorMarks = StateEffect.define<EditorMarks>();

const GLYPH: Readonly<Record<MarkKind, string>> = { error: '!', 'acl-error': '✕', warning: '▲', note: 'i', ok: '●' };

class MarkMarker extends GutterMarker {
  readonly line: number;
  readonly kind: MarkKind;
  readonly executed: boolean;
  readonly title: string;

  constructor(line: number, kind: MarkKind, executed: boolean, title: string) {
    super();
    this.line = line;
    this.kind = kind;
    this.executed = executed;
    this.title = title;
  }

  override eq(other: GutterMarker): boolean {
    return (
      other instanceof MarkMarker &&
      other.line === this.line &&
      other.kind === this.kind &&
      other.executed === this.executed &&
      other.title === this.title
    );
  }

  override toDOM(): Node {
    const span = document.createElement('span');
    span.className = `pl-mark pl-mark-${this.kind}${this.executed ? ' pl-mark-executed' : ''}`;
    span.textContent = GLYPH[this.kind];
    span.title = this.title;
    span.setAttribute('aria-label', this.title);
    span.dataset.kind = this.kind;
    // The line as the execution saw it, for tests and tools (the DOM order of a gutter skips empty lines).
    span.dataset.line = String(this.line);
    return span;
  }
}

class ErrorWidget extends WidgetType {
  readonly message: string;

  constructor(message: string) {
    super();
    this.message = message;
  }

  override eq(other: WidgetType): boolean {
    return other instanceof ErrorWidget && other.message === this.message;
  }

  override toDOM(): HTMLElement {
    const div = document.createElement('div');
    div.className = 'pl-line-error-message';
    div.setAttribute('role', 'alert');
    div.textContent = this.message;
    return div;
  }
}

interface Built {
  readonly gutter: RangeSet<GutterMarker>;
  readonly decorations: DecorationSet;
}

function lineStart(state: EditorState, line: number): number | undefined {
  return line >= 1 && line <= state.doc.lines ? state.doc.line(line).from : undefined;
}

/** The word at line:column (1-based), or one character: what a diagnostic underlines. */
function diagnosticRange(state: EditorState, d: Diagnostic): { from: number; to: number } | undefined {
  if (d.line < 1 || d.line > state.doc.lines) return undefined;
  const line = state.doc.line(d.line);
  const from = Math.min(line.to, line.from + Math.max(0, d.column - 1));
  let to = from;
  while (to < line.to && /[\w$]/.test(line.text.charAt(to - line.from))) to += 1;
  if (to === from) to = Math.min(line.to, from + 1);
  if (to === from) return undefined;
  return { from, to };
}

function build(state: EditorState, marks: EditorMarks): Built {
  const markers: Range<GutterMarker>[] = [];
  for (const mark of marks.gutter) {
    const at = lineStart(state, mark.line);
    if (at !== undefined) markers.push(new MarkMarker(mark.line, mark.kind, mark.executed, marks.describe(mark)).range(at));
  }
  const decorations: Range<Decoration>[] = [];
  const lineClass = (line: number | undefined, cls: string) => {
    const at = line === undefined ? undefined : lineStart(state, line);
    if (at !== undefined) decorations.push(Decoration.line({ class: cls }).range(at));
  };
  lineClass(marks.timeLine, 'pl-line-time');
  lineClass(marks.current, 'pl-line-current');
  lineClass(marks.error?.line, 'pl-line-error');
  for (const d of marks.diagnostics) {
    const range = diagnosticRange(state, d);
    if (range !== undefined)
      decorations.push(
        Decoration.mark({ class: `pl-diag pl-diag-${d.severity}`, attributes: { title: d.message } }).range(range.from, range.to),
      );
  }
  if (marks.error !== undefined && marks.error.line >= 1 && marks.error.line <= state.doc.lines) {
    const end = state.doc.line(marks.error.line).to;
    decorations.push(Decoration.widget({ widget: new ErrorWidget(marks.error.message), block: true, side: 1 }).range(end));
  }
  return { gutter: RangeSet.of(markers, true), decorations: Decoration.set(decorations, true) };
}

const marksField = StateField.define<Built>({
  create: () => ({ gutter: RangeSet.empty, decorations: Decoration.none }),
  update(value, tr) {
    for (const effect of tr.effects) if (effect.is(setEditorMarks)) return build(tr.state, effect.value);
    return tr.docChanged ? { gutter: value.gutter.map(tr.changes), decorations: value.decorations.map(tr.changes) } : value;
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.decorations),
});

class Spacer extends GutterMarker {
  override toDOM(): Node {
    const span = document.createElement('span');
    span.className = 'pl-mark';
    span.textContent = '●';
    return span;
  }
}

/** The marks gutter (left of the line numbers) and line decorations; `onClick` gets the clicked line. */
export function editorMarks(onClick: (line: number) => void) {
  return [
    marksField,
    gutter({
      class: 'pl-marks-gutter',
      markers: (view) => view.state.field(marksField).gutter,
      initialSpacer: () => new Spacer(),
      domEventHandlers: {
        mousedown: (view, block) => {
          onClick(view.state.doc.lineAt(block.from).number);
          return true;
        },
      },
    }),
  ];
}
