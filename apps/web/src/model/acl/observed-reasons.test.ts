import { describe, expect, it } from 'vitest';
import { aclScene, MiB } from '../../../test/acl-scene.ts';
import { callReasonsOf, withObserved } from './observed-reasons.ts';

describe('reasons a real runtime was observed to give', () => {
  it('finds the observed reasons on the call that made an object', () => {
    const scene = aclScene();
    scene.malloc(3 * MiB, 2);
    const alloc = scene.events.find((event) => event.kind === 'alloc');
    expect(callReasonsOf(scene.eventAt, alloc?.seq ?? -1).map((reason) => reason.code)).toEqual(['observed-pool']);
    // A call has no maker: nothing to add.
    expect(callReasonsOf(scene.eventAt, alloc?.call ?? -1)).toEqual([]);
  });

  it('adds observed reasons after the rules-derived ones, never twice', () => {
    const rule = { code: 'huge-first-fallback', rules: ['DM-4'] };
    const seen = { code: 'observed-pool', rules: ['DM-15'] };
    expect(withObserved([rule], [rule, seen])).toEqual([rule, seen]);
    expect(withObserved([], [])).toEqual([]);
  });
});
