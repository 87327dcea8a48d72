import { clip, FOLLOW_LIMITS, type FollowDoc, type FollowMark, type FollowRun, scenarioById } from '@pagelens/core';
import type { PlaygroundState } from '../../model/playground/controller.ts';
import type { GutterMark } from '../../model/playground/gutter-model.ts';
import { docFromScenario, type PlaygroundDoc, sameProgram } from '../../model/playground/playground-doc.ts';
import type { PlaygroundFollow } from '../../store/follow-slice.ts';

/** A built-in scenario still as shipped goes by its id (viewers have its code, titled in their language); anything else as code. */
function followDoc(state: PlaygroundState): FollowDoc {
  const { doc, source } = state;
  if (source.kind === 'builtin') {
    const scenario = scenarioById(source.id);
    if (scenario !== undefined && sameProgram(doc, docFromScenario(scenario, 'en'))) return { kind: 'scenario', id: scenario.id };
  }
  return {
    kind: 'code',
    name: doc.name.slice(0, FOLLOW_LIMITS.name),
    code: doc.code,
    setup: doc.setup,
    inputs: doc.inputs.slice(0, FOLLOW_LIMITS.inputs).map((input) => ({ ...input })),
    ...(doc.entry === undefined ? {} : { entry: doc.entry }),
    ...(doc.args === undefined || doc.args === '' ? {} : { args: doc.args.slice(0, FOLLOW_LIMITS.args) }),
  };
}

/** The marks within the channel's caps: every line's glyph, the most serious tooltip lines of each. */
function followMarks(marks: readonly GutterMark[]): FollowMark[] {
  return marks.slice(0, FOLLOW_LIMITS.marks).map((mark) => ({
    line: mark.line,
    kind: mark.kind,
    executed: mark.executed,
    hits: mark.hits,
    details: mark.details.slice(0, FOLLOW_LIMITS.details).map((d) => ({ ...d, text: clip(d.text, FOLLOW_LIMITS.detailText - 1) })),
  }));
}

/** Idle marks are the compiler's: a viewer has the code and computes them itself. */
function followRun(state: PlaygroundState): FollowRun {
  const { run } = state;
  const idle = run.status === 'idle';
  const error = run.error;
  return {
    status: run.status,
    ...(run.line === undefined || run.line < 1 ? {} : { line: run.line }),
    ...(error === undefined
      ? {}
      : { error: { line: error.line, message: clip(error.message, FOLLOW_LIMITS.errorMessage - 1), inSetup: error.inSetup === true } }),
    marks: idle ? [] : followMarks(run.codeMarks),
    setupMarks: idle ? [] : followMarks(run.setupMarks),
  };
}

/** What a viewer needs to draw this playground as it is: the document, the run's state, its gutter. */
export function playgroundFollow(state: PlaygroundState): PlaygroundFollow {
  return { doc: followDoc(state), run: followRun(state) };
}

/** The document a viewer shows for the driver's: a built-in scenario in the viewer's language, or the driver's code. */
export function followedDoc(doc: FollowDoc, language: 'en' | 'zh'): PlaygroundDoc {
  if (doc.kind === 'code') {
    const { kind: _kind, ...rest } = doc;
    return rest;
  }
  const scenario = scenarioById(doc.id);
  return scenario === undefined ? { name: doc.id, code: '', inputs: [], setup: '' } : docFromScenario(scenario, language);
}
