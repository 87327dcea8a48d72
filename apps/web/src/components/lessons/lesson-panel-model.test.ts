import { LESSONS } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import {
  CLOSED,
  jumpWouldMove,
  type PanelAction,
  type PanelState,
  panelReducer,
  publishedPosition,
  trainerNote,
  validPosition,
} from './lesson-panel-model.ts';

const run = (actions: readonly PanelAction[], from: PanelState = CLOSED): PanelState => actions.reduce(panelReducer, from);
const first = LESSONS[0]?.id ?? '';
const second = LESSONS[1]?.id ?? '';
const stepsOfFirst = LESSONS[0]?.steps.length ?? 0;

describe('the lessons panel model', () => {
  it('opens on a chosen lesson at step 1 and moves within its steps only', () => {
    const chosen = run([{ kind: 'choose', lessonId: first }]);
    expect(chosen).toMatchObject({ open: true, position: { lessonId: first, step: 0 } });
    expect(run([{ kind: 'move', by: -1 }], chosen).position?.step).toBe(0);
    const last = run(
      Array.from({ length: stepsOfFirst + 3 }, () => ({ kind: 'move', by: 1 }) as const),
      chosen,
    );
    expect(last.position?.step).toBe(stepsOfFirst - 1);
    expect(run([{ kind: 'goTo', step: 2 }], chosen).position?.step).toBe(2);
    expect(run([{ kind: 'goTo', step: 99 }], chosen).position?.step).toBe(stepsOfFirst - 1);
  });

  it('shows hints one at a time, no more than the step has, and starts each step without them', () => {
    const chosen = run([{ kind: 'choose', lessonId: first }]);
    const available = LESSONS[0]?.steps[0]?.hints.length ?? 0;
    expect(run([{ kind: 'hint' }], chosen).hints).toBe(1);
    expect(
      run(
        Array.from({ length: available + 2 }, () => ({ kind: 'hint' }) as const),
        chosen,
      ).hints,
    ).toBe(available);
    expect(run([{ kind: 'hint' }, { kind: 'move', by: 1 }], chosen).hints).toBe(0);
  });

  it('toggles and closes without forgetting the position', () => {
    const chosen = run([
      { kind: 'choose', lessonId: first },
      { kind: 'move', by: 1 },
    ]);
    const closed = run([{ kind: 'toggle' }], chosen);
    expect(closed).toMatchObject({ open: false, position: { step: 1 } });
    expect(run([{ kind: 'toggle' }], closed)).toMatchObject({ open: true, position: { step: 1 } });
    expect(run([{ kind: 'close' }], chosen).open).toBe(false);
  });

  it('publishes a driver position only while teaching, and never a viewer one', () => {
    const chosen = run([
      { kind: 'choose', lessonId: first },
      { kind: 'move', by: 1 },
    ]);
    expect(publishedPosition(chosen, true)).toBeNull();
    const teaching = run([{ kind: 'startForAll' }], chosen);
    expect(publishedPosition(teaching, true)).toEqual({ lessonId: first, step: 1 });
    expect(publishedPosition(run([{ kind: 'move', by: 1 }], teaching), true)).toEqual({ lessonId: first, step: 2 });
    expect(publishedPosition(teaching, false)).toBeNull();
    expect(publishedPosition(run([{ kind: 'stopForAll' }], teaching), true)).toBeNull();
    // Nothing to start before a lesson is chosen.
    expect(run([{ kind: 'startForAll' }]).teaching).toBe(false);
  });

  it('opens a lesson the trainer starts for all on a viewer, and follows the trainer until the viewer browses away', () => {
    const started = run([{ kind: 'driverPublished', previous: null, next: { lessonId: first, step: 0 } }]);
    expect(started).toMatchObject({ open: true, following: true, position: { lessonId: first, step: 0 } });
    const moved = run([{ kind: 'driverPublished', previous: { lessonId: first, step: 0 }, next: { lessonId: first, step: 2 } }], started);
    expect(moved.position?.step).toBe(2);
    const browsed = run([{ kind: 'move', by: -1 }], moved);
    expect(browsed.following).toBe(false);
    const ignored = run([{ kind: 'driverPublished', previous: { lessonId: first, step: 2 }, next: { lessonId: first, step: 3 } }], browsed);
    expect(ignored.position?.step).toBe(1);
    expect(jumpWouldMove(ignored, { lessonId: first, step: 3 })).toBe(true);
    const jumped = run([{ kind: 'jumpToDriver', driver: { lessonId: first, step: 3 } }], ignored);
    expect(jumped).toMatchObject({ following: true, position: { step: 3 } });
    expect(jumpWouldMove(jumped, { lessonId: first, step: 3 })).toBe(false);
    // A new lesson started for all opens even on a viewer who had browsed away.
    const next = run([{ kind: 'driverPublished', previous: { lessonId: first, step: 3 }, next: { lessonId: second, step: 0 } }], browsed);
    expect(next).toMatchObject({ following: true, position: { lessonId: second, step: 0 } });
    // The trainer stopping leaves the viewer where they are.
    expect(run([{ kind: 'driverPublished', previous: { lessonId: second, step: 0 }, next: null }], next)).toMatchObject({
      following: false,
      position: { lessonId: second },
    });
  });

  it('ignores positions the lesson table does not have', () => {
    expect(validPosition({ lessonId: 'no-such-lesson', step: 0 })).toBeNull();
    expect(validPosition({ lessonId: first, step: -4 })).toEqual({ lessonId: first, step: 0 });
    expect(run([{ kind: 'driverPublished', previous: null, next: { lessonId: 'nope', step: 1 } }]).open).toBe(false);
    expect(trainerNote({ lessonId: 'nope', step: 0 }, false)).toBeUndefined();
    expect(trainerNote({ lessonId: first, step: 9 }, false)?.step).toBe(stepsOfFirst - 1);
    expect(trainerNote({ lessonId: first, step: 1 }, true)).toBeUndefined();
  });
});
