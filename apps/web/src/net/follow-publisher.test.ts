import { type FollowState, SCENARIOS } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { FollowPublisher } from './follow-publisher.ts';

const id = SCENARIOS[0]?.id ?? '';
const at = (line: number): FollowState => ({
  doc: { kind: 'scenario', id },
  run: { status: 'paused', line, marks: [], setupMarks: [] },
  lesson: null,
});

/** A publisher whose coalescing window ends when the test calls `endWindow`. */
function publisher() {
  const sent: FollowState[] = [];
  let windows: (() => void)[] = [];
  const follow = new FollowPublisher({ send: (state) => sent.push(state), schedule: (flush) => windows.push(flush) });
  const endWindow = () => {
    const due = windows;
    windows = [];
    for (const flush of due) flush();
  };
  return { follow, sent, endWindow, open: () => windows.length };
}

describe('FollowPublisher', () => {
  it('sends the last state offered within a window, once', () => {
    const { follow, sent, endWindow, open } = publisher();
    follow.offer(at(3));
    follow.offer(at(4));
    follow.offer(at(5));
    expect(open()).toBe(1);
    expect(sent).toEqual([]);
    endWindow();
    expect(sent).toEqual([at(5)]);
  });

  it('does not send a state equal to the one sent last', () => {
    const { follow, sent, endWindow } = publisher();
    follow.offer(at(3));
    endWindow();
    follow.offer({ ...at(3) });
    endWindow();
    follow.offer(at(4));
    endWindow();
    expect(sent).toEqual([at(3), at(4)]);
  });

  it('sends the same state again after a reconnect (forget)', () => {
    const { follow, sent, endWindow } = publisher();
    follow.offer(at(3));
    endWindow();
    follow.forget();
    follow.offer(at(3));
    endWindow();
    expect(sent).toEqual([at(3), at(3)]);
  });

  it('opens a new window for the next change after one ends', () => {
    const { follow, sent, endWindow, open } = publisher();
    follow.offer(at(1));
    endWindow();
    expect(open()).toBe(0);
    follow.offer(at(2));
    expect(open()).toBe(1);
    endWindow();
    expect(sent.map((s) => s.run.line)).toEqual([1, 2]);
  });
});
