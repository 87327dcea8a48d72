import type { MemoryEvent } from '@pagelens/core';

/** Whether the event is about object `id` (for an object's story). */
export function isAbout(event: MemoryEvent, id: number): boolean {
  switch (event.kind) {
    case 'alloc':
    case 'free':
    case 'physAlloc':
    case 'physFree':
    case 'physRetain':
    case 'physRelease':
    case 'reserve':
    case 'release':
    case 'unmap':
    case 'setAccess':
    case 'hostAlloc':
    case 'hostFree':
    case 'hostRegister':
    case 'hostUnregister':
    case 'streamDestroy':
    case 'streamMode':
    case 'contextCreate':
    case 'contextDestroy':
    case 'contextCurrent':
    case 'eventReset':
    case 'eventDestroy':
    case 'export':
    case 'ipcExport':
      return event.id === id;
    case 'streamCreate':
      // A context's story holds the streams made in it (CX-3).
      return event.id === id || event.context === id;
    case 'eventCreate':
      return event.id === id || event.context === id;
    case 'eventRecord':
    case 'eventWait':
      // An event's records and waits are part of the stream's story too (EV-2, EV-3).
      return event.id === id || event.stream === id;
    case 'map':
      return event.id === id || event.reservation === id || event.handle === id;
    case 'import':
    case 'ipcImport':
      return event.id === id || event.source === id;
    case 'copy':
      return event.id === id || event.stream === id;
    case 'valueWrite':
    case 'valueWait':
      // Value tasks belong to their stream's story (CP-12).
      return event.stream === id;
    default:
      return false;
  }
}

/** Stories kept at once: the objects a person looked at most recently. */
const KEPT = 16;

/**
 * The ordinals of the events about each object asked for, found by scanning the history the first
 * time and only the events added since on later asks. Ordinals count every event a timeline ever
 * held, so they stay valid when the oldest events are dropped. Nothing is spent on objects nobody
 * looks at: indexing every event as it arrives cost as much as reducing it.
 */
export class StoryIndex {
  /** Per object: how far the history was scanned, the ordinals about it, and the IPC keys it was exported under (IP-1). */
  readonly #stories = new Map<number, { scanned: number; ordinals: number[]; keys: Set<string> }>();

  /**
   * The ordinals of the events about `id` among `events`, whose first has ordinal `dropped`, oldest
   * first.
   */
  ordinalsOf(id: number, events: readonly MemoryEvent[], dropped: number): readonly number[] {
    let story = this.#stories.get(id);
    if (story === undefined) {
      story = { scanned: dropped, ordinals: [], keys: new Set() };
      if (this.#stories.size >= KEPT) this.#stories.delete(this.#stories.keys().next().value ?? id);
    } else this.#stories.delete(id);
    // Re-inserted: the map's order is the order of use.
    this.#stories.set(id, story);
    for (let index = Math.max(0, story.scanned - dropped); index < events.length; index += 1) {
      const event = events[index];
      if (event === undefined) continue;
      // An allocation's keys, seen in order: the allow-list changes and closes of them are about it too (IP-2, IP-4).
      if (event.kind === 'ipcExport' && event.id === id) story.keys.add(event.key);
      const ofKey = (event.kind === 'ipcPids' || event.kind === 'ipcClose') && story.keys.has(event.key);
      if (ofKey || isAbout(event, id)) story.ordinals.push(dropped + index);
    }
    story.scanned = dropped + events.length;
    if ((story.ordinals[0] ?? dropped) < dropped) story.ordinals = story.ordinals.filter((ordinal) => ordinal >= dropped);
    return story.ordinals;
  }

  clear(): void {
    this.#stories.clear();
  }
}
