import type { Result } from './session-messages.ts';

/**
 * What a call answered, the same in every layer from the backend to the page: the wire `result`
 * without its message id — the function, its aclError with the code's name, the out-parameters, the
 * runtime's or the rule's message, the seqs of the events it caused, and its duration.
 */
export type CallReply = Omit<Result, 'type' | 'id'>;
