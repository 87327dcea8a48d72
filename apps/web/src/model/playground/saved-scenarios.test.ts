import { describe, expect, it } from 'vitest';
import type { PlaygroundDoc } from './playground-doc.ts';
import { deleteScenario, loadSaved, renameScenario, SAVED_KEY, type ScenarioStorage, saveScenario } from './saved-scenarios.ts';

class MemoryStorage implements ScenarioStorage {
  readonly items = new Map<string, string>();
  quota = Number.POSITIVE_INFINITY;

  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    if (value.length > this.quota) {
      const error = new Error("Failed to execute 'setItem' on 'Storage': exceeded the quota.");
      error.name = 'QuotaExceededError';
      throw error;
    }
    this.items.set(key, value);
  }
}

const doc = (name: string, code = 'int main(void) { return 0; }'): PlaygroundDoc => ({
  name,
  code,
  inputs: [{ name: 'size', ctype: 'size_t', value: '4 MiB' }],
  setup: 'aclInit(nullptr);',
});

let ids = 0;
const newId = () => `id${++ids}`;

describe('saved scenarios', () => {
  it('starts empty, saves, lists and keeps every field', () => {
    const storage = new MemoryStorage();
    expect(loadSaved(storage)).toEqual({ ok: true, value: [] });
    const saved = saveScenario(storage, doc('我的场景'), 1000, newId);
    expect(saved.ok).toBe(true);
    const list = loadSaved(storage);
    expect(list).toEqual({ ok: true, value: [{ id: saved.ok ? saved.value.id : '', doc: doc('我的场景'), savedAt: 1000 }] });
  });

  it('saving under an existing name updates that scenario instead of adding one', () => {
    const storage = new MemoryStorage();
    saveScenario(storage, doc('a'), 1, newId);
    const again = saveScenario(storage, doc('a', 'int main(void) { return 1; }'), 2, newId);
    const list = loadSaved(storage);
    expect(list.ok && list.value.map((s) => [s.doc.name, s.doc.code, s.savedAt])).toEqual([['a', 'int main(void) { return 1; }', 2]]);
    expect(again.ok && list.ok && again.value.id === list.value[0]?.id).toBe(true);
  });

  it('renames and deletes; a taken or empty name is refused', () => {
    const storage = new MemoryStorage();
    const a = saveScenario(storage, doc('a'), 1, newId);
    saveScenario(storage, doc('b'), 2, newId);
    const idA = a.ok ? a.value.id : '';
    expect(renameScenario(storage, idA, 'b')).toEqual({ ok: false, problem: { key: 'nameTaken', values: { name: 'b' } } });
    expect(renameScenario(storage, idA, '   ')).toEqual({ ok: false, problem: { key: 'emptyName' } });
    expect(renameScenario(storage, 'nope', 'c')).toEqual({ ok: false, problem: { key: 'notSaved' } });
    const renamed = renameScenario(storage, idA, '  c  ');
    expect(renamed.ok && renamed.value.map((s) => s.doc.name)).toEqual(['c', 'b']);
    const deleted = deleteScenario(storage, idA);
    expect(deleted.ok && deleted.value.map((s) => s.doc.name)).toEqual(['b']);
    const list = loadSaved(storage);
    expect(list.ok && list.value.map((s) => s.doc.name)).toEqual(['b']);
  });

  it('says so when the storage is full, and keeps what was there', () => {
    const storage = new MemoryStorage();
    saveScenario(storage, doc('small'), 1, newId);
    const before = storage.getItem(SAVED_KEY);
    storage.quota = 500;
    const result = saveScenario(storage, doc('big', 'x'.repeat(1000)), 2, newId);
    expect(result).toEqual({ ok: false, problem: { key: 'storageQuota' } });
    expect(storage.getItem(SAVED_KEY)).toBe(before);
  });

  it('reports an unreadable list and never overwrites it', () => {
    const storage = new MemoryStorage();
    storage.items.set(SAVED_KEY, '{not json');
    expect(loadSaved(storage)).toEqual({ ok: false, problem: { key: 'storageCorrupt', values: { key: SAVED_KEY } } });
    expect(saveScenario(storage, doc('a'), 1, newId).ok).toBe(false);
    expect(deleteScenario(storage, 'x').ok).toBe(false);
    expect(storage.getItem(SAVED_KEY)).toBe('{not json');
    storage.items.set(SAVED_KEY, JSON.stringify([{ id: 'x', savedAt: 1, doc: { name: 'a', code: 5 } }]));
    expect(loadSaved(storage).ok).toBe(false);
  });

  it('works without storage at all (private mode): a clear problem, not a crash', () => {
    expect(loadSaved(undefined)).toEqual({ ok: false, problem: { key: 'storageUnavailable' } });
    const throwing: ScenarioStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => undefined,
    };
    expect(loadSaved(throwing)).toEqual({ ok: false, problem: { key: 'storageUnavailable' } });
  });
});
