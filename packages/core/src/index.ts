export { ErrorCode, ErrorMessage } from './protocol/errors.ts';
export { DeviceInfo, Hello, HostInfo, Role, Welcome } from './protocol/handshake.ts';
export { AgentMessage, ClientMessage } from './protocol/messages.ts';
export { describeIssue, type ParseResult, parseAgentMessage, parseClientMessage } from './protocol/parse.ts';
export { PROTOCOL_VERSION } from './protocol/version.ts';
