import { z } from 'zod';
import { ErrorMessage } from './errors.ts';
import { Hello, Welcome } from './handshake.ts';

/** Every message a client may send. */
export const ClientMessage = z.discriminatedUnion('type', [Hello]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/** Every message the agent may send. */
export const AgentMessage = z.discriminatedUnion('type', [Welcome, ErrorMessage]);
export type AgentMessage = z.infer<typeof AgentMessage>;
