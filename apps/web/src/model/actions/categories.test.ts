import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { actions } from '../../i18n/messages/actions.ts';
import { FUNCTION_CATEGORIES } from './categories.ts';

describe('function categories', () => {
  it('lists the category of every catalogue function once, contexts and events among them', () => {
    const used = new Set(ACL_FUNCTION_NAMES.map((fn) => ACL_FUNCTIONS[fn].category));
    expect(new Set(FUNCTION_CATEGORIES).size).toBe(FUNCTION_CATEGORIES.length);
    for (const category of used) expect(FUNCTION_CATEGORIES).toContain(category);
    expect(FUNCTION_CATEGORIES).toEqual(expect.arrayContaining(['context', 'event']));
  });

  it('names every category in English and Chinese', () => {
    for (const category of FUNCTION_CATEGORIES) {
      expect(actions.en.call.categories[category]).toBeTruthy();
      expect(actions.zh.call.categories[category]).toBeTruthy();
    }
    expect(actions.en.call.categories.event).toBe('Events');
    expect(actions.zh.call.categories.context).toBe('Context');
  });
});
