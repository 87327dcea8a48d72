import { type AgentMessage, encodeSnapshot, type HostState, type PackedSnapshotMessage, packSnapshot } from '@pagelens/core';

interface Built {
  readonly text: string;
  bytes?: Buffer;
}

/**
 * Snapshot messages as sent, in the form each client asked for (rows, or packed in columns).
 * Every client needing one while the state stays at one seq (viewers joining a workshop, a reset,
 * slow clients catching up) shares its text and its UTF-8 bytes: a state object at a seq is one
 * state. Only the texts of the current seq are held (a large host's text is megabytes).
 */
export class SnapshotTexts {
  #held: { state: HostState; seq: number; built: Map<string, Built> } | undefined;

  #built(state: HostState, packed: boolean, reset: boolean): Built {
    if (this.#held?.state !== state || this.#held.seq !== state.seq) this.#held = { state, seq: state.seq, built: new Map() };
    const key = `${packed ? 'packed' : 'rows'}:${reset}`;
    let built = this.#held.built.get(key);
    if (built === undefined) {
      const snapshot = encodeSnapshot(state);
      const message: AgentMessage | PackedSnapshotMessage = packed
        ? { type: 'snapshot', seq: state.seq, reset, packed: packSnapshot(snapshot) }
        : { type: 'snapshot', seq: state.seq, reset, snapshot };
      built = { text: JSON.stringify(message) };
      this.#held.built.set(key, built);
    }
    return built;
  }

  text(state: HostState, packed: boolean, reset: boolean): string {
    return this.#built(state, packed, reset).text;
  }

  /** The same message as bytes, made once and shared by every socket that sends it. */
  bytes(state: HostState, packed: boolean, reset: boolean): Buffer {
    const built = this.#built(state, packed, reset);
    built.bytes ??= Buffer.from(built.text);
    return built.bytes;
  }
}
