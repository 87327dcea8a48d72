import { type AgentMessage, encodeSnapshot, type HostState, type PackedSnapshotMessage, packSnapshot } from '@pagelens/core';

/**
 * Snapshot messages as sent, in the form each client asked for (rows, or packed in columns).
 * Clients needing one in the same turn (a reset, several slow clients catching up) share its text:
 * a state object at a seq is one state. Texts are held for the current turn only (a large host's
 * text is megabytes).
 */
export class SnapshotTexts {
  #held: { state: HostState; seq: number; texts: Map<string, string> } | undefined;

  text(state: HostState, packed: boolean, reset: boolean): string {
    if (this.#held?.state !== state || this.#held.seq !== state.seq) {
      this.#held = { state, seq: state.seq, texts: new Map() };
      queueMicrotask(() => {
        this.#held = undefined;
      });
    }
    const key = `${packed ? 'packed' : 'rows'}:${reset}`;
    let text = this.#held.texts.get(key);
    if (text === undefined) {
      const snapshot = encodeSnapshot(state);
      const message: AgentMessage | PackedSnapshotMessage = packed
        ? { type: 'snapshot', seq: state.seq, reset, packed: packSnapshot(snapshot) }
        : { type: 'snapshot', seq: state.seq, reset, snapshot };
      text = JSON.stringify(message);
      this.#held.texts.set(key, text);
    }
    return text;
  }
}
