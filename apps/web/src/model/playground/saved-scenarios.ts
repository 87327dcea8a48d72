import { isObject } from '@pagelens/core';
import { type Checked, DOC_LIMITS, docData, type PlaygroundDoc, parseDoc } from './playground-doc.ts';

/** The user's own scenarios, kept in this browser's local storage under one key as a JSON list. */
export const SAVED_KEY = 'pagelens.playground.saved';
export const MAX_SAVED = 200;

export interface SavedScenario {
  readonly id: string;
  readonly doc: PlaygroundDoc;
  /** ms since the epoch. */
  readonly savedAt: number;
}

export type ScenarioStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * Every saved scenario, or a problem when the stored list cannot be read. An unreadable list is
 * never overwritten by the functions below (they refuse first), so nothing is lost silently.
 */
export function loadSaved(storage: ScenarioStorage | undefined): Checked<readonly SavedScenario[]> {
  if (storage === undefined) return { ok: false, problem: { key: 'storageUnavailable' } };
  let raw: string | null;
  try {
    raw = storage.getItem(SAVED_KEY);
  } catch {
    return { ok: false, problem: { key: 'storageUnavailable' } };
  }
  if (raw === null) return { ok: true, value: [] };
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    return { ok: false, problem: { key: 'storageCorrupt', values: { key: SAVED_KEY } } };
  }
  if (!Array.isArray(list)) return { ok: false, problem: { key: 'storageCorrupt', values: { key: SAVED_KEY } } };
  const saved: SavedScenario[] = [];
  for (const item of list) {
    if (!isObject(item) || typeof item.id !== 'string' || typeof item.savedAt !== 'number') {
      return { ok: false, problem: { key: 'storageCorrupt', values: { key: SAVED_KEY } } };
    }
    const doc = parseDoc(item.doc);
    if (!doc.ok) return { ok: false, problem: { key: 'storageCorrupt', values: { key: SAVED_KEY } } };
    saved.push({ id: item.id, doc: doc.value, savedAt: item.savedAt });
  }
  return { ok: true, value: saved };
}

function write(storage: ScenarioStorage, list: readonly SavedScenario[]): Checked<readonly SavedScenario[]> {
  const data = list.map((item) => ({ id: item.id, savedAt: item.savedAt, doc: docData(item.doc) }));
  try {
    storage.setItem(SAVED_KEY, JSON.stringify(data));
  } catch (error) {
    // QuotaExceededError (or storage disabled): the list stays as it was.
    const quota = error instanceof Error && /quota/i.test(`${error.name} ${error.message}`);
    return { ok: false, problem: { key: quota ? 'storageQuota' : 'storageUnavailable' } };
  }
  return { ok: true, value: list };
}

function cleanName(name: string): Checked<string> {
  const trimmed = name.trim();
  if (trimmed === '') return { ok: false, problem: { key: 'emptyName' } };
  if (trimmed.length > DOC_LIMITS.name) return { ok: false, problem: { key: 'tooLong', values: { field: 'name', max: DOC_LIMITS.name } } };
  return { ok: true, value: trimmed };
}

/**
 * Saves `doc` under its name: a scenario with the same name is replaced (saving again updates it),
 * otherwise a new one is added. Returns the new list, with the saved one's id.
 */
export function saveScenario(
  storage: ScenarioStorage | undefined,
  doc: PlaygroundDoc,
  now: number,
  newId: () => string,
): Checked<{ readonly list: readonly SavedScenario[]; readonly id: string }> {
  const current = loadSaved(storage);
  if (!current.ok || storage === undefined) return current.ok ? { ok: false, problem: { key: 'storageUnavailable' } } : current;
  const name = cleanName(doc.name);
  if (!name.ok) return name;
  const checked = parseDoc(docData({ ...doc, name: name.value }));
  if (!checked.ok) return checked;
  const existing = current.value.find((item) => item.doc.name === name.value);
  const id = existing?.id ?? newId();
  const entry: SavedScenario = { id, doc: checked.value, savedAt: now };
  const list = existing === undefined ? [...current.value, entry] : current.value.map((item) => (item.id === id ? entry : item));
  if (list.length > MAX_SAVED) return { ok: false, problem: { key: 'tooManySaved', values: { max: MAX_SAVED } } };
  const written = write(storage, list);
  return written.ok ? { ok: true, value: { list, id } } : written;
}

export function renameScenario(storage: ScenarioStorage | undefined, id: string, name: string): Checked<readonly SavedScenario[]> {
  const current = loadSaved(storage);
  if (!current.ok || storage === undefined) return current.ok ? { ok: false, problem: { key: 'storageUnavailable' } } : current;
  const clean = cleanName(name);
  if (!clean.ok) return clean;
  if (!current.value.some((item) => item.id === id)) return { ok: false, problem: { key: 'notSaved' } };
  if (current.value.some((item) => item.id !== id && item.doc.name === clean.value)) {
    return { ok: false, problem: { key: 'nameTaken', values: { name: clean.value } } };
  }
  return write(
    storage,
    current.value.map((item) => (item.id === id ? { ...item, doc: { ...item.doc, name: clean.value } } : item)),
  );
}

export function deleteScenario(storage: ScenarioStorage | undefined, id: string): Checked<readonly SavedScenario[]> {
  const current = loadSaved(storage);
  if (!current.ok || storage === undefined) return current.ok ? { ok: false, problem: { key: 'storageUnavailable' } } : current;
  return write(
    storage,
    current.value.filter((item) => item.id !== id),
  );
}
