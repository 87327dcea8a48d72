/**
 * The PageLens wire protocol version. Bump it whenever a message shape changes
 * in a way an older peer could misread; both sides refuse to talk across versions.
 */
export const PROTOCOL_VERSION = 1;
