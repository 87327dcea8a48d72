import { describe, expect, it } from 'vitest';
import { BESIDE_VIEWS, type BesideView, DEFAULT_PREFS, loadPrefs, savePrefs } from '../store/ui-slice.ts';
import { explorerLayout, sideColumns } from './layout-mode.ts';
import { nextBeside } from './PlaygroundSplit.tsx';

/** A Storage holding one string, enough for loadPrefs and savePrefs. */
function memory(initial?: string): Pick<Storage, 'getItem' | 'setItem'> & { value: string | null } {
  const box = {
    value: initial ?? null,
    getItem: () => box.value,
    setItem: (_key: string, value: string) => {
      box.value = value;
    },
  };
  return box;
}

describe('the explorer layout', () => {
  it('is the split only for the playground with the split chosen', () => {
    expect(explorerLayout('playground', 'split', false)).toBe('split');
    expect(explorerLayout('playground', 'split', true)).toBe('split-wide');
    expect(explorerLayout('playground', 'tab', false)).toBe('tabs');
    expect(explorerLayout('pages', 'split', true)).toBe('tabs');
    // A lesson open in a narrow window keeps the Actions column its steps use; a wide one has it anyway.
    expect(explorerLayout('playground', 'split', false, true)).toBe('split-lesson');
    expect(explorerLayout('playground', 'split', true, true)).toBe('split-wide');
    expect(explorerLayout('playground', 'tab', false, true)).toBe('tabs');
  });

  it('gives up the left column and the inspector column only in the narrow split', () => {
    expect(sideColumns('split')).toEqual({ left: false, inspector: 'overlay' });
    expect(sideColumns('split-wide')).toEqual({ left: true, inspector: 'column' });
    expect(sideColumns('split-lesson')).toEqual({ left: true, inspector: 'overlay' });
    expect(sideColumns('tabs')).toEqual({ left: true, inspector: 'column' });
  });

  it('steps through every view beside the code and wraps round', () => {
    const seen: BesideView[] = [BESIDE_VIEWS[0]];
    for (let i = 1; i < BESIDE_VIEWS.length + 1; i += 1) seen.push(nextBeside(seen[i - 1] ?? 'pages'));
    expect(seen).toEqual([...BESIDE_VIEWS, BESIDE_VIEWS[0]]);
  });
});

describe('the split in the remembered preferences', () => {
  it('starts as code beside the page map', () => {
    expect(loadPrefs(memory(), false)).toMatchObject({ playgroundLayout: 'split', besideCode: 'pages' });
  });

  it('comes back as saved', () => {
    const storage = memory();
    savePrefs(storage, { ...DEFAULT_PREFS, playgroundLayout: 'tab', besideCode: 'log' });
    expect(loadPrefs(storage, false)).toMatchObject({ playgroundLayout: 'tab', besideCode: 'log' });
  });

  it('falls back to the defaults for values it does not know (a view that cannot sit beside the code)', () => {
    const storage = memory(JSON.stringify({ playgroundLayout: 'sideways', besideCode: 'playground', theme: 'dark' }));
    expect(loadPrefs(storage, false)).toMatchObject({ playgroundLayout: 'split', besideCode: 'pages', theme: 'dark' });
  });
});
