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

describe('yielding shortcuts (a view beside the playground code)', () => {
  // dispatch reads only the key and Shift (the tests run without a DOM).
  const press = (key: string) => shortcuts.dispatch({ key, shiftKey: false } as KeyboardEvent);

  it('give way to an own shortcut on the same key, and come back when it goes', () => {
    const ran: string[] = [];
    const beside = shortcuts.add(entry('g'), () => ran.push('beside'), true);
    expect(press('g')).toBe(true);
    const code = shortcuts.add(entry('g'), () => ran.push('code'));
    expect(shortcuts.conflicts()).toEqual([]);
    expect(shortcuts.list().filter((s) => s.key === 'g')).toHaveLength(1);
    expect(press('g')).toBe(true);
    code();
    expect(press('g')).toBe(true);
    expect(ran).toEqual(['beside', 'code', 'beside']);
    beside();
  });

  it('keep the keys no own shortcut takes', () => {
    const ran: string[] = [];
    const removers = [shortcuts.add(entry('z'), () => ran.push('zoom'), true), shortcuts.add(entry('n'), () => ran.push('step'))];
    expect(press('z')).toBe(true);
    expect(shortcuts.list().map((s) => s.key)).toEqual(['z', 'n']);
    expect(ran).toEqual(['zoom']);
    for (const remove of removers) remove();
  });

  it('still conflict among themselves, so two views beside the code would be caught', () => {
    const removers = [shortcuts.add(entry('['), () => {}, true), shortcuts.add(entry('['), () => {}, true)];
    expect(shortcuts.conflicts()).toEqual(['[', 'Shift+[']);
    for (const remove of removers) remove();
  });
});
