import type { RunInfo } from '@pagelens/core';
import type { TFunction } from 'i18next';

/** How a run stands, in words: running, exited with code N, killed by signal S, or ended (no status known). */
export function runState(t: TFunction, run: RunInfo): string {
  switch (run.state) {
    case 'running':
      return t('processes.state.running');
    case 'exited':
      return t('processes.state.exited', { code: run.code ?? 0 });
    case 'killed':
      return t('processes.state.killed', { signal: run.signal ?? '?' });
    case 'ended':
      return t('processes.state.ended');
  }
}

/** The command as the panel shows it: the program's file name and its arguments, the path left out. */
export function shortCommand(command: string): string {
  const [program = '', ...args] = command.split(' ');
  const name = program.slice(program.lastIndexOf('/') + 1);
  return [name, ...args].join(' ');
}
