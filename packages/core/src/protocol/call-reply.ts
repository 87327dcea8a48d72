import type { Result } from './session-messages.ts';

/**
 * What a call answered, the same in every layer from the backend to the page: the wire `result`
 * without its message id — the function, its aclError with the code's name, the out-parameters, the
 * runtime's or the rule's message, the seqs of the events it caused, and its duration.
 */
export type CallReply = Omit<Result, 'type' | 'id'>;

/**
 * What a caller is answered: the agent's reply (`ok` when `ret` is 0), or a refusal before any ACL
 * call (not connected, quota, rate limit, a viewer calling), which has a message but no `ret`.
 */
export type CallAnswer = { readonly ok: boolean; readonly fn: string; readonly events: readonly number[] } & {
  readonly [K in Exclude<keyof CallReply, 'fn' | 'events'>]?: CallReply[K];
};
