import { describe, expect, it } from 'vitest';
import { type Logger, redacting } from './logger.ts';

describe('redacting logger', () => {
  it('never writes the secret, at any level, wherever it stands in the line', () => {
    const lines: string[] = [];
    const inner: Logger = { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) };
    const log = redacting(inner, ['s3cret-token', '']);
    log.info('GET /ws/s3cret-token');
    log.warn('s3cret-tokens3cret-token twice');
    log.error('no secret here');
    expect(lines).toEqual(['GET /ws/‹redacted›', '‹redacted›‹redacted› twice', 'no secret here']);
  });
});
