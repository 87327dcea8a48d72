import { C_LIBRARY_NAMES, GETOPT_CONSTANTS } from './c-library.ts';
import { CHAR_PTR, INT, VOID_PTR } from './c-type-model.ts';
import { intValue, type Value } from './values.ts';

/**
 * Names the C library and the compiler provide that ACL programs use in messages: the standard
 * streams (for fprintf, whose text goes to the output like printf's) and the current function's
 * name. `function` is the name of the function running.
 */
export function libraryName(name: string, fn: string | undefined): Value | undefined {
  switch (name) {
    case 'stdout':
    case 'stderr':
      return { k: 'ptr', type: { k: 'ptr', to: VOID_PTR.to, name: 'FILE*' }, addr: 0n };
    case '__func__':
    case '__FUNCTION__':
    case '__PRETTY_FUNCTION__':
      return { k: 'str', type: CHAR_PTR, text: fn ?? '' };
    default: {
      const constant = GETOPT_CONSTANTS.get(name);
      return constant === undefined ? undefined : intValue(INT, constant);
    }
  }
}

/** The standard output streams, written with `<<` (eval.ts prints what they would). */
export const OUTPUT_STREAMS: ReadonlySet<string> = new Set(['std::cout', 'std::cerr', 'std::clog', 'cout', 'cerr', 'clog']);

export const LIBRARY_NAMES: ReadonlySet<string> = new Set([
  'stdout',
  'stderr',
  '__func__',
  '__FUNCTION__',
  '__PRETTY_FUNCTION__',
  'std::endl',
  'endl',
  ...OUTPUT_STREAMS,
  ...C_LIBRARY_NAMES,
]);
