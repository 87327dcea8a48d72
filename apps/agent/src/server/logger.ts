/** Where the agent writes what it does. Never pass a token to it. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function consoleLogger(quiet = false): Logger {
  const stamp = (): string => new Date().toISOString().slice(11, 23);
  return {
    info: (message) => {
      if (!quiet) process.stderr.write(`${stamp()} ${message}\n`);
    },
    warn: (message) => process.stderr.write(`${stamp()} warning: ${message}\n`),
    error: (message) => process.stderr.write(`${stamp()} error: ${message}\n`),
  };
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * A logger that writes `‹redacted›` wherever a secret (the access token) appears: the last guard
 * behind the rule that no log line repeats client text, for a message that slips through.
 */
export function redacting(inner: Logger, secrets: readonly string[]): Logger {
  const wanted = secrets.filter((secret) => secret.length > 0);
  const clean = (message: string): string => wanted.reduce((text, secret) => text.split(secret).join('‹redacted›'), message);
  return {
    info: (message) => inner.info(clean(message)),
    warn: (message) => inner.warn(clean(message)),
    error: (message) => inner.error(clean(message)),
  };
}
