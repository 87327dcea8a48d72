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
