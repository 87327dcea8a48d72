import { describe, expect, it } from 'vitest';
import { shortcuts } from './shortcuts.ts';

const entry = (key: string, shift?: boolean) => ({ key, label: 'l', group: 'g', ...(shift === undefined ? {} : { shift }) });

describe('shortcut conflicts', () => {
  it('reports a key bound twice, and stops once one is removed', () => {
    const first = shortcuts.add(entry('a'), () => {});
    const second = shortcuts.add(entry('a'), () => {});
    expect(shortcuts.conflicts()).toEqual(['a', 'Shift+a']);
    second();
    expect(shortcuts.conflicts()).toEqual([]);
    first();
  });

  it('treats shift-specific bindings as distinct, but a shift-agnostic one overlaps both', () => {
    const plain = shortcuts.add(entry('ArrowLeft', false), () => {});
    const shifted = shortcuts.add(entry('ArrowLeft', true), () => {});
    expect(shortcuts.conflicts()).toEqual([]);
    const any = shortcuts.add(entry('ArrowLeft'), () => {});
    expect(shortcuts.conflicts()).toEqual(['ArrowLeft', 'Shift+ArrowLeft']);
    for (const remove of [plain, shifted, any]) remove();
  });

  it('lets dialogs layer Escape over the global one', () => {
    const removers = [shortcuts.add(entry('Escape'), () => {}), shortcuts.add(entry('Escape'), () => {})];
    expect(shortcuts.conflicts()).toEqual([]);
    for (const remove of removers) remove();
  });
});
