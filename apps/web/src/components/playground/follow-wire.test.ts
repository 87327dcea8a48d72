import { FOLLOW_LIMITS, PublishFollowState, scenarioById } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import type { PlaygroundState, RunView } from '../../model/playground/controller.ts';
import { docFromScenario } from '../../model/playground/playground-doc.ts';
import { followedDoc, playgroundFollow } from './follow-wire.ts';

const scenario = scenarioById('seed-device-memory');
if (scenario === undefined) throw new Error('no seed-device-memory scenario');

const IDLE: RunView = {
  status: 'idle',
  line: undefined,
  error: undefined,
  exitCode: undefined,
  steps: 0,
  command: undefined,
  codeMarks: [{ line: 3, kind: 'warning', executed: false, hits: 0, details: [{ kind: 'warning', text: 'unused', count: 1 }] }],
  setupMarks: [],
  variables: [],
  output: [],
  calls: 0,
  aclErrors: 0,
  stopping: false,
};

const builtin = (run: RunView = IDLE, language: 'en' | 'zh' = 'zh'): PlaygroundState => ({
  doc: docFromScenario(scenario, language),
  source: { kind: 'builtin', id: scenario.id },
  run,
  link: undefined,
});

/** The state as the driver would publish it passes the wire's schema. */
const valid = (state: PlaygroundState) =>
  PublishFollowState.safeParse({ type: 'followState', state: { ...playgroundFollow(state), lesson: null } }).success;

describe('the playground as the follow channel carries it', () => {
  it("carries main's command line with the code, and the viewer's document has it back", () => {
    const state = builtin();
    const edited: PlaygroundState = { ...state, doc: { ...state.doc, args: '--device_id 0 "a b"' } };
    const sent = playgroundFollow(edited).doc;
    expect(sent).toMatchObject({ kind: 'code', args: '--device_id 0 "a b"' });
    expect(valid(edited)).toBe(true);
    expect(followedDoc(sent, 'en').args).toBe('--device_id 0 "a b"');
    expect(playgroundFollow(state).doc).toEqual({ kind: 'scenario', id: 'seed-device-memory' });
  });

  it('names an unedited built-in scenario by its id, whatever language the driver reads it in', () => {
    expect(playgroundFollow(builtin()).doc).toEqual({ kind: 'scenario', id: 'seed-device-memory' });
    expect(followedDoc({ kind: 'scenario', id: 'seed-device-memory' }, 'en')).toEqual(docFromScenario(scenario, 'en'));
  });

  it('sends edited code as code, which the viewer shows as it is', () => {
    const state = builtin();
    const edited = { ...state, doc: { ...state.doc, code: `${state.doc.code}\n// mine` } };
    const follow = playgroundFollow(edited);
    expect(follow.doc).toMatchObject({ kind: 'code', code: edited.doc.code, setup: edited.doc.setup });
    expect(followedDoc(follow.doc, 'en')).toEqual(edited.doc);
    expect(valid(edited)).toBe(true);
  });

  it("leaves out the idle marks (a viewer compiles the code itself) and keeps a paused run's line and marks", () => {
    expect(playgroundFollow(builtin()).run).toEqual({ status: 'idle', marks: [], setupMarks: [] });
    const mark = {
      line: 5,
      kind: 'ok' as const,
      executed: true,
      hits: 2,
      details: [{ kind: 'ok' as const, text: 'aclrtMalloc → ACL_SUCCESS', count: 2 }],
    };
    const paused = builtin({ ...IDLE, status: 'paused', line: 6, codeMarks: [mark] });
    expect(playgroundFollow(paused).run).toEqual({ status: 'paused', line: 6, marks: [mark], setupMarks: [] });
  });

  it('trims marks to the caps so that what it builds is always a valid message', () => {
    const details = Array.from({ length: 9 }, (_, i) => ({ kind: 'acl-error' as const, text: `${i} ${'z'.repeat(500)}`, count: 1 }));
    const marks = Array.from({ length: FOLLOW_LIMITS.marks + 10 }, (_, i) => ({
      line: i + 1,
      kind: 'acl-error' as const,
      executed: true,
      hits: 1,
      details,
    }));
    const run = builtin({
      ...IDLE,
      status: 'error',
      line: 4,
      codeMarks: marks,
      error: { kind: 'internal', message: 'e'.repeat(5000), line: 4, column: 1 },
    });
    const follow = playgroundFollow(run);
    expect(follow.run.marks).toHaveLength(FOLLOW_LIMITS.marks);
    expect(follow.run.marks[0]?.details).toHaveLength(FOLLOW_LIMITS.details);
    expect(follow.run.marks[0]?.details[0]?.text).toHaveLength(FOLLOW_LIMITS.detailText);
    expect(follow.run.error).toMatchObject({ line: 4, inSetup: false });
    expect(valid(run)).toBe(true);
  });
});
