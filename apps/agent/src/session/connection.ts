import { type AgentMessage, type DeviceInfo, type HostInfo, PROTOCOL_VERSION, parseClientMessage, type Role } from '@pagelens/core';
import { CloseCode, type PeerHandler, type PeerSocket } from './peer-socket.ts';

/** What a connection needs to know about the agent to greet a client. */
export interface AgentFacts {
  readonly backend: string;
  readonly host: HostInfo;
  readonly devices: readonly DeviceInfo[];
}

/** A client that has not said hello within this time is closed. */
export const HELLO_TIMEOUT_MS = 10_000;

let nextSessionNumber = 1;

/**
 * One client's protocol state: it must say hello first, then it is welcomed with its role.
 * Everything it sends is parsed against the protocol schemas; nothing is trusted.
 */
export function openConnection(socket: PeerSocket, facts: AgentFacts): PeerHandler {
  let role: Role | undefined;
  const sessionId = `s${nextSessionNumber++}`;
  const send = (message: AgentMessage): void => socket.send(JSON.stringify(message));

  const helloTimer = setTimeout(() => {
    if (role === undefined) socket.close(CloseCode.policyViolation, 'no hello within 10 s');
  }, HELLO_TIMEOUT_MS);
  helloTimer.unref?.();

  return {
    message(text) {
      const parsed = parseClientMessage(text);
      if (!parsed.ok) {
        send({
          type: 'error',
          code: 'bad-message',
          message: parsed.message,
          ...(parsed.field === undefined ? {} : { field: parsed.field }),
        });
        return;
      }
      const message = parsed.value;
      switch (message.type) {
        case 'hello': {
          if (role !== undefined) {
            send({ type: 'error', code: 'already-greeted', message: 'hello was already accepted on this connection' });
            return;
          }
          if (message.protocol !== PROTOCOL_VERSION) {
            send({
              type: 'error',
              code: 'protocol-mismatch',
              message: `this agent speaks PageLens protocol ${PROTOCOL_VERSION} but the client sent protocol ${message.protocol}; use a client and agent from the same release (reload the page the agent serves)`,
              field: 'protocol',
            });
            socket.close(CloseCode.protocolError, 'protocol mismatch');
            return;
          }
          clearTimeout(helloTimer);
          role = message.role;
          send({
            type: 'welcome',
            protocol: PROTOCOL_VERSION,
            sessionId,
            role,
            backend: facts.backend,
            host: facts.host,
            devices: [...facts.devices],
            seq: 0,
          });
          return;
        }
      }
    },
    closed() {
      clearTimeout(helloTimer);
    },
  };
}
