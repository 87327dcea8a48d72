import type { CallRecord, Diagnostic, LineMark } from '@pagelens/core';

/** The most serious thing that happened on a line; the gutter draws one glyph for it. */
export type MarkKind = 'error' | 'acl-error' | 'warning' | 'note' | 'ok';

export interface MarkDetail {
  readonly kind: MarkKind;
  /** English text from the interpreter, or a call with its code: `aclrtFree → ACL_ERROR_INVALID_PARAM (100000)`. */
  readonly text: string;
  /** How many times the same text happened (loops). */
  readonly count: number;
}

export interface GutterMark {
  readonly line: number;
  readonly kind: MarkKind;
  readonly executed: boolean;
  /** How many times a statement on the line ran. */
  readonly hits: number;
  readonly details: readonly MarkDetail[];
}

const RANK: Readonly<Record<MarkKind, number>> = { error: 0, 'acl-error': 1, warning: 2, note: 3, ok: 4 };

/** A call as the gutter names it: the function, the code's name and number, and why it failed. */
export function callText(call: CallRecord): string {
  const code = call.ret === 0 ? call.retName : `${call.retName} (${call.ret})`;
  const base = `${call.fn} → ${code}`;
  return call.ret !== 0 && call.message !== undefined ? `${base}: ${call.message}` : base;
}

class LineBuilder {
  readonly details: MarkDetail[] = [];
  executed = false;
  hits = 0;

  add(kind: MarkKind, text: string): void {
    const index = this.details.findIndex((d) => d.kind === kind && d.text === text);
    const found = this.details[index];
    if (found === undefined) this.details.push({ kind, text, count: 1 });
    else this.details[index] = { ...found, count: found.count + 1 };
  }

  /** Compile diagnostics repeat what an execution later records: keep one of each. */
  addOnce(kind: MarkKind, text: string): void {
    if (!this.details.some((d) => d.kind === kind && d.text === text)) this.details.push({ kind, text, count: 1 });
  }

  build(line: number): GutterMark | undefined {
    const sorted = [...this.details].sort((a, b) => RANK[a.kind] - RANK[b.kind]);
    const top = sorted[0]?.kind;
    if (top === undefined && !this.executed) return undefined;
    return { line, kind: top ?? 'ok', executed: this.executed, hits: this.hits, details: sorted };
  }
}

function severityKind(severity: Diagnostic['severity']): MarkKind {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

/**
 * Times the statements of a line ran to completion. The interpreter counts a statement when it
 * starts, so the line an execution is paused before has one start that has not run yet.
 */
export function completedHits(mark: LineMark, line: number, pausedLine: number | undefined): number {
  return line === pausedLine ? Math.max(0, mark.hits - 1) : mark.hits;
}

/**
 * One gutter mark per line that has something to show, in line order: what the execution recorded
 * (`lineMarks`; absent before the first step) merged with the compiler's diagnostics. Calls that
 * succeeded are listed too, so hovering an executed line tells what it did. The line paused
 * before counts as executed only if it ran before (a loop).
 */
export function gutterMarks(
  lineMarks: ReadonlyMap<number, LineMark> | undefined,
  diagnostics: readonly Diagnostic[],
  pausedLine?: number,
): GutterMark[] {
  const lines = new Map<number, LineBuilder>();
  const at = (line: number): LineBuilder => {
    let builder = lines.get(line);
    if (builder === undefined) {
      builder = new LineBuilder();
      lines.set(line, builder);
    }
    return builder;
  };
  for (const [line, mark] of lineMarks ?? []) {
    const builder = at(line);
    builder.hits = completedHits(mark, line, pausedLine);
    builder.executed = mark.executed && builder.hits > 0;
    for (const text of mark.errors) builder.add('error', text);
    for (const call of mark.calls) builder.add(call.ret === 0 ? 'ok' : 'acl-error', callText(call));
    for (const text of mark.warnings) builder.addOnce('warning', text);
    for (const text of mark.notes) builder.addOnce('note', text);
  }
  for (const diagnostic of diagnostics) at(diagnostic.line).addOnce(severityKind(diagnostic.severity), diagnostic.message);
  const marks: GutterMark[] = [];
  for (const [line, builder] of [...lines].sort((a, b) => a[0] - b[0])) {
    const mark = builder.build(line);
    if (mark !== undefined) marks.push(mark);
  }
  return marks;
}

/** Calls on executed lines that returned an ACL error, across the whole code. */
export function aclErrorCount(marks: readonly GutterMark[]): number {
  let count = 0;
  for (const mark of marks) for (const detail of mark.details) if (detail.kind === 'acl-error') count += detail.count;
  return count;
}
