import type { TlbResult } from '@pagelens/core';
import { DEFAULT_PATTERN, type PatternDraft } from '../../model/tlb/pattern.ts';
import { createLocalStore } from './local-store.ts';

export type RunStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly id: number; readonly accesses: number; readonly signature: string }
  | { readonly kind: 'done'; readonly result: TlbResult; readonly ms: number; readonly signature: string }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'noWorker'; readonly max: number }
  | { readonly kind: 'cancelled' };

export interface SimUiState {
  /** BufferChoice key the person picked; undefined follows the selection or takes the first buffer. */
  readonly bufferKey: string | undefined;
  readonly draft: PatternDraft;
  readonly run: RunStatus;
}

export const simStore = createLocalStore<SimUiState>({ bufferKey: undefined, draft: DEFAULT_PATTERN, run: { kind: 'idle' } });
