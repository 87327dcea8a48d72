import { z } from 'zod';
import { CodedTextSchema } from './event-schemas.ts';

/**
 * Why the agent refused a message. Codes are stable identifiers a client may branch on;
 * `message` is for people and names the field, what was received and what is allowed.
 */
export const ErrorCode = z.enum([
  'protocol-mismatch',
  'bad-message',
  'hello-required',
  'already-greeted',
  'not-driver',
  'driver-busy',
  'unknown-function',
  'invalid-argument',
  'quota-exceeded',
  'rate-limited',
  'not-allowed',
  'backend-error',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorMessage = z.strictObject({
  type: z.literal('error'),
  code: ErrorCode,
  message: z.string(),
  /** The message as a code and values (texts/table.ts), for the client's language. */
  messageCode: CodedTextSchema.exactOptional(),
  /** The `id` of the call this error answers, when it answers one. */
  id: z.number().int().nonnegative().exactOptional(),
  /** Path of the offending field, for example "args.size". */
  field: z.string().exactOptional(),
});
export type ErrorMessage = z.infer<typeof ErrorMessage>;
