import type { AclFunctionName, WireArgs } from '@pagelens/core';
import { createContext, type ReactNode, useContext } from 'react';
import type { CallOutcome, ResetOutcome } from './actions-slice.ts';

/** What components may ask of the agent connection (the client object itself stays outside React). */
export interface AgentActions {
  call<F extends AclFunctionName>(fn: F, args: WireArgs<F>, process?: number): Promise<CallOutcome>;
  /** Arguments a generated form built (`BuiltCall`): the one untyped way in. */
  callUnchecked(fn: AclFunctionName, args: Readonly<Record<string, unknown>>, process?: number): Promise<CallOutcome>;
  /** Resolves once the fresh host is in, or with the agent's refusal. */
  reset(options?: { profile?: string; devices?: number; seed?: number }): Promise<ResetOutcome>;
  retry(): void;
}

const ClientContext = createContext<AgentActions | null>(null);

export function ClientProvider({ actions, children }: { actions: AgentActions; children: ReactNode }) {
  return <ClientContext.Provider value={actions}>{children}</ClientContext.Provider>;
}

export function useAgent(): AgentActions {
  const actions = useContext(ClientContext);
  if (actions === null) throw new Error('useAgent must be used inside <ClientProvider>');
  return actions;
}
