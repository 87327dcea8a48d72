import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { createSessionSlice, type SessionSlice } from './session-slice.ts';

const store = () => create<SessionSlice>()(createSessionSlice);
const notice = (code: string, message: string) => ({ type: 'notice' as const, level: 'warn' as const, code, message });

describe('session notices', () => {
  it('a newer notice of the same code replaces the older one instead of stacking', () => {
    const s = store();
    s.getState().pushNotice(notice('driver-busy', 'another driver session is active (29 s left to reconnect)'), 1);
    s.getState().pushNotice(notice('quota', 'near the quota'), 2);
    s.getState().pushNotice(notice('driver-busy', 'another driver session is active (27 s left to reconnect)'), 3);
    expect(s.getState().notices.map((n) => [n.code, n.at])).toEqual([
      ['quota', 2],
      ['driver-busy', 3],
    ]);
    expect(s.getState().notices[1]?.message).toContain('27 s');
  });

  it('the newest five of different codes are kept', () => {
    const s = store();
    for (let i = 0; i < 7; i += 1) s.getState().pushNotice(notice(`code-${i}`, `message ${i}`), i);
    expect(s.getState().notices.map((n) => n.message)).toEqual(['message 2', 'message 3', 'message 4', 'message 5', 'message 6']);
    s.getState().dismissNotice(4);
    expect(s.getState().notices.map((n) => n.at)).toEqual([2, 3, 5, 6]);
  });
});
