import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../scenarios/index.ts';
import { FOLLOW_LIMITS, type FollowState } from './follow-messages.ts';
import { parseAgentMessage, parseClientMessage } from './parse.ts';

const firstId = SCENARIOS[0]?.id ?? '';

const STATE: FollowState = {
  doc: { kind: 'scenario', id: firstId },
  run: {
    status: 'paused',
    line: 7,
    marks: [{ line: 5, kind: 'ok', executed: true, hits: 1, details: [{ kind: 'ok', text: 'aclrtMalloc → ACL_SUCCESS', count: 1 }] }],
    setupMarks: [],
  },
  lesson: { lessonId: 'page-policies', step: 2 },
};

const publish = (state: unknown) => JSON.stringify({ type: 'followState', state });
const refusal = (text: string): string => {
  const parsed = parseClientMessage(text);
  if (parsed.ok) throw new Error('accepted');
  return parsed.message;
};

describe('followState from the driver', () => {
  it('accepts a built-in scenario, paused on a line, with its marks and the lesson step', () => {
    const parsed = parseClientMessage(publish(STATE));
    expect(parsed).toEqual({ ok: true, value: { type: 'followState', state: STATE } });
  });

  it('accepts custom code with its setup and inputs, and no lesson', () => {
    const state = {
      ...STATE,
      doc: {
        kind: 'code',
        name: 'mine',
        code: 'aclInit(nullptr);',
        setup: '',
        inputs: [{ name: 'size', ctype: 'size_t', value: '4 MiB' }],
      },
      lesson: null,
    };
    expect(parseClientMessage(publish(state))).toEqual({ ok: true, value: { type: 'followState', state } });
  });

  it('refuses code longer than the cap and says the cap', () => {
    const code = 'x'.repeat(FOLLOW_LIMITS.code + 1);
    const message = refusal(publish({ ...STATE, doc: { kind: 'code', name: 'big', code, setup: '', inputs: [] } }));
    expect(message).toContain('field "state.doc.code"');
    expect(message).toContain('at most 100,000 characters');
  });

  it('accepts code exactly at the cap', () => {
    const code = 'x'.repeat(FOLLOW_LIMITS.code);
    expect(parseClientMessage(publish({ ...STATE, doc: { kind: 'code', name: 'big', code, setup: '', inputs: [] } })).ok).toBe(true);
  });

  it('refuses a scenario id no client knows, naming the ones it could be', () => {
    const message = refusal(publish({ ...STATE, doc: { kind: 'scenario', id: 'no-such-scenario' } }));
    expect(message).toContain('field "state.doc.id"');
    expect(message).toContain(firstId);
  });

  it.each([
    [
      'more marks than the cap',
      { ...STATE.run, marks: Array.from({ length: FOLLOW_LIMITS.marks + 1 }, (_, i) => ({ ...STATE.run.marks[0], line: i + 1 })) },
      'state.run.marks',
    ],
    ['a mark on line 0', { ...STATE.run, marks: [{ ...STATE.run.marks[0], line: 0 }] }, 'state.run.marks.0.line'],
    ['a run state the playground does not have', { ...STATE.run, status: 'walking' }, 'state.run.status'],
    [
      'a tooltip line longer than the cap',
      {
        ...STATE.run,
        marks: [{ ...STATE.run.marks[0], details: [{ kind: 'ok', text: 'y'.repeat(FOLLOW_LIMITS.detailText + 1), count: 1 }] }],
      },
      'state.run.marks.0.details.0.text',
    ],
  ])('refuses %s', (_what, run, field) => {
    const parsed = parseClientMessage(publish({ ...STATE, run }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.field).toBe(field);
  });

  it('refuses keys the state does not have', () => {
    expect(refusal(publish({ ...STATE, cursor: 3 }))).toContain('Unrecognized key: "cursor"');
  });

  it('refuses a negative lesson step', () => {
    const parsed = parseClientMessage(publish({ ...STATE, lesson: { lessonId: 'x', step: -1 } }));
    expect(parsed.ok ? undefined : parsed.field).toBe('state.lesson.step');
  });
});

describe('followState to viewers', () => {
  it('carries the state with the driver label, or null when there is nothing to follow', () => {
    const relayed = { type: 'followState', state: STATE, driver: 'trainer laptop' };
    expect(parseAgentMessage(JSON.stringify(relayed))).toEqual({ ok: true, value: relayed });
    expect(parseAgentMessage(JSON.stringify({ type: 'followState', state: null }))).toEqual({
      ok: true,
      value: { type: 'followState', state: null },
    });
  });

  it('refuses a relay without a state field', () => {
    expect(parseAgentMessage(JSON.stringify({ type: 'followState' })).ok).toBe(false);
  });
});
