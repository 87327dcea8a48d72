import { readFile } from 'node:fs/promises';
import {
  argsAreValid,
  canonicalJson,
  clip,
  type DeviceProfile,
  findProfile,
  invokeAcl,
  isAclFunctionName,
  loadProfileJson,
  type MemoryEvent,
  normalizeArgs,
} from '@pagelens/core';
import type { BackendProcess } from '../backends/backend.ts';
import { SimBackend } from '../backends/sim/sim-backend.ts';
import type { Config } from './entries.ts';
import { readJournal } from './journal-lines.ts';

export interface ReplayOptions {
  readonly quiet: boolean;
  readonly out: (line: string) => void;
}

function profileOf(config: Config): DeviceProfile {
  if (config.profileJson !== undefined) {
    const loaded = loadProfileJson(JSON.stringify(config.profileJson), 'journal profile');
    if (!loaded.ok) throw new Error(loaded.message);
    return loaded.profile;
  }
  const builtin = findProfile(config.profile);
  if (builtin === undefined) throw new Error(`the journal names profile "${clip(config.profile)}", which this PageLens does not know`);
  return builtin;
}

const canonical = (value: unknown): string => canonicalJson(value ?? null);
/** Longest text of a recorded or replayed value in a difference (a journal may hold anything). */
const SHOWN = 160;
/** Longest reason quoted from a failure to build or reset the simulator (a profile's error may quote the journal). */
const REASON_LIMIT = 400;

const reasonOf = (error: unknown): string => clip(error instanceof Error ? error.message : String(error), REASON_LIMIT);

/**
 * Re-runs a journal against a fresh simulator built from its header and compares every result
 * and event. Returns the exit code: 0 all match, 1 a difference, 2 an unreadable journal.
 */
export async function replayJournal(file: string, options: ReplayOptions): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    options.out(`replay: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const read = readJournal(text, file);
  if (!read.ok) {
    options.out(`replay: ${read.message}`);
    return 2;
  }
  const [first, ...rest] = read.lines;
  const header = first?.entry;
  if (first === undefined || header?.type !== 'header') {
    options.out(`replay: ${file} does not start with a journal header`);
    return 2;
  }
  if (header.config.backend !== 'sim')
    options.out(`replay: the journal was recorded on the "${clip(header.config.backend)}" backend; replaying it on the simulator`);

  let backend: SimBackend;
  try {
    backend = new SimBackend(profileOf(header.config), header.config.devices, header.config.seed, header.config.profileJson);
  } catch (error) {
    options.out(`replay: line ${first.line} of ${file}: ${reasonOf(error)}`);
    return 2;
  }
  const replayed: MemoryEvent[] = [];
  // Loops, not push(...events): one call (a reset of a full device) can emit more events than a call takes arguments.
  backend.subscribe((events) => {
    for (const event of events) replayed.push(event);
  });
  const recorded: MemoryEvent[] = [];
  const processes = new Map<string, BackendProcess>();
  const pending = new Map<string, { fn: string; ret: number; out: Record<string, unknown>; message?: string }[]>();
  const differences: string[] = [];
  let calls = 0;

  for (const { line, entry } of rest) {
    switch (entry.type) {
      case 'header':
      case 'session':
        break;
      case 'reset':
        try {
          await backend.reset({ profile: entry.config.profile, devices: entry.config.devices, seed: entry.config.seed });
        } catch (error) {
          options.out(`replay: line ${line} of ${file}: ${reasonOf(error)}`);
          return 2;
        }
        processes.clear();
        break;
      case 'process': {
        const opened = backend.openProcess(entry.name);
        if (opened.pid !== entry.pid) differences.push(`process ${clip(entry.name)}: recorded pid ${entry.pid}, replayed ${opened.pid}`);
        processes.set(`${entry.session}/${entry.process}`, opened);
        break;
      }
      case 'call': {
        calls += 1;
        const opened = processes.get(`${entry.session}/${entry.process}`);
        if (opened === undefined || !isAclFunctionName(entry.fn)) {
          differences.push(`call ${entry.id} ${clip(entry.fn)} (line ${line}): no such process or function`);
          break;
        }
        const fn = entry.fn;
        const normalized = normalizeArgs(fn, entry.args);
        if (!normalized.ok || !argsAreValid(fn, normalized.value)) {
          differences.push(`call ${entry.id} ${fn} (line ${line}): its arguments no longer validate`);
          break;
        }
        // The message's code is not journalled (the message is): it is not an out-field either.
        const { ret, message, messageCode: _code, ...out } = await invokeAcl(opened.runtime, fn, normalized.value);
        const queue = pending.get(entry.session) ?? [];
        queue.push({ fn, ret, out, ...(message === undefined ? {} : { message }) });
        pending.set(entry.session, queue);
        break;
      }
      case 'result': {
        const got = pending.get(entry.session)?.shift();
        if (got === undefined) {
          differences.push(`result ${entry.id} (line ${line}): no call before it`);
          break;
        }
        if (got.ret !== entry.ret || canonical(got.out) !== canonical(entry.out ?? {}) || got.message !== entry.message) {
          differences.push(
            `${got.fn} (call ${entry.id}, line ${line}): recorded ret ${entry.ret} ${clip(canonical(entry.out), SHOWN)}, replayed ret ${got.ret} ${clip(canonical(got.out), SHOWN)}`,
          );
        }
        break;
      }
      case 'events':
        for (const event of entry.events) recorded.push(event);
        break;
    }
  }
  const length = Math.max(recorded.length, replayed.length);
  for (let i = 0; i < length && differences.length < 20; i += 1) {
    if (canonical(recorded[i]) !== canonical(replayed[i])) {
      differences.push(
        `event #${i + 1}: recorded ${canonical(recorded[i]).slice(0, SHOWN)}, replayed ${canonical(replayed[i]).slice(0, SHOWN)}`,
      );
      break;
    }
  }
  if (differences.length === 0) {
    options.out(`replay: ${calls} calls and ${recorded.length} events match (${file})`);
    return 0;
  }
  options.out(`replay: ${differences.length} difference(s) in ${file}:`);
  if (!options.quiet) for (const difference of differences.slice(0, 20)) options.out(`  ${difference}`);
  return 1;
}
