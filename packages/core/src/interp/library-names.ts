import { C_LIBRARY_NAMES, GETOPT_CONSTANTS } from './c-library.ts';
import { CHAR_PTR, INT, NULLOPT_T, VOID_PTR } from './c-type-model.ts';
import { FILE_CONSTANTS } from './file-constants.ts';
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
    case 'std::nullopt':
    case 'nullopt':
      return { k: 'ptr', type: NULLOPT_T, addr: 0n };
    case '__func__':
    case '__FUNCTION__':
    case '__PRETTY_FUNCTION__':
      return { k: 'str', type: CHAR_PTR, text: fn ?? '' };
    default: {
      const constant =
        GETOPT_CONSTANTS.get(name) ??
        FILE_CONSTANTS.get(name) ??
        STREAM_FLAGS.get(name.replace(/^std::/, '').replace(/^(?:[io]?f?stream|ios_base)::/, 'ios::'));
      return constant === undefined ? undefined : intValue(INT, constant);
    }
  }
}

/**
 * The open modes and seek directions of the file streams (`ifstream::binary`, `std::ios::end`), as
 * libstdc++ numbers them; the streams themselves are not modeled, so these only have to be names.
 */
const STREAM_FLAGS: ReadonlyMap<string, bigint> = new Map([
  ['ios::app', 1n],
  ['ios::ate', 2n],
  ['ios::binary', 4n],
  ['ios::in', 8n],
  ['ios::out', 16n],
  ['ios::trunc', 32n],
  ['ios::beg', 0n],
  ['ios::cur', 1n],
  ['ios::end', 2n],
]);

const STREAM_FLAG_NAMES = [...STREAM_FLAGS.keys()].flatMap((flag) => {
  const member = flag.slice('ios::'.length);
  return ['ios', 'ios_base', 'ifstream', 'ofstream', 'fstream'].flatMap((owner) => [`${owner}::${member}`, `std::${owner}::${member}`]);
});

/** The standard output streams, written with `<<` (eval.ts prints what they would). */
export const OUTPUT_STREAMS: ReadonlySet<string> = new Set(['std::cout', 'std::cerr', 'std::clog', 'cout', 'cerr', 'clog']);

export const LIBRARY_NAMES: ReadonlySet<string> = new Set([
  'stdout',
  'stderr',
  '__func__',
  '__FUNCTION__',
  '__PRETTY_FUNCTION__',
  'std::endl',
  'std::nullopt',
  'nullopt',
  'endl',
  ...OUTPUT_STREAMS,
  ...C_LIBRARY_NAMES,
  ...FILE_CONSTANTS.keys(),
  ...STREAM_FLAG_NAMES,
]);
