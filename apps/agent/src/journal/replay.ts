import { readFile } from 'node:fs/promises';
import {
  argsAreValid,
  canonicalJson,
  type DeviceProfile,
  findProfile,
  invokeAcl,
  isAclFunctionName,
  loadProfileJson,
  type MemoryEvent,
  MemoryEventSchema,
  normalizeArgs,
} from '@pagelens/core';
import { z } from 'zod';
import type { BackendProcess } from '../backends/backend.ts';
import { SimBackend } from '../backends/sim/sim-backend.ts';

const Config = z.object({
  backend: z.string(),
  profile: z.string(),
  profileJson: z.unknown().optional(),
  devices: z.number().int().min(1).max(16),
  seed: z.number().int().nonnegative(),
});
const Entry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('header'), version: z.literal(1), created: z.string(), config: Config }),
  z.object({ type: z.literal('reset'), config: Config }),
  z.object({ type: z.literal('session'), session: z.string(), action: z.string() }),
  z.object({ type: z.literal('process'), session: z.string(), process: z.number().int(), pid: z.number().int(), name: z.string() }),
  z.object({
    type: z.literal('call'),
    session: z.string(),
    process: z.number().int(),
    id: z.number().int(),
    fn: z.string(),
    args: z.record(z.string(), z.unknown()),
    source: z.string(),
  }),
  z.object({
    type: z.literal('result'),
    session: z.string(),
    id: z.number().int(),
    ret: z.number().int(),
    out: z.record(z.string(), z.unknown()).optional(),
    message: z.string().optional(),
  }),
  z.object({ type: z.literal('events'), events: z.array(MemoryEventSchema) }),
]);
type Entry = z.infer<typeof Entry>;

export interface ReplayOptions {
  readonly quiet: boolean;
  readonly out: (line: string) => void;
}

function profileOf(config: z.infer<typeof Config>): DeviceProfile {
  if (config.profileJson !== undefined) {
    const loaded = loadProfileJson(JSON.stringify(config.profileJson), 'journal profile');
    if (!loaded.ok) throw new Error(loaded.message);
    return loaded.profile;
  }
  const builtin = findProfile(config.profile);
  if (builtin === undefined) throw new Error(`the journal names profile "${config.profile}", which this PageLens does not know`);
  return builtin;
}

const canonical = (value: unknown): string => canonicalJson(value ?? null);

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
  const entries: Entry[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      options.out(`replay: line ${index + 1} of ${file} is not JSON`);
      return 2;
    }
    const parsed = Entry.safeParse(json);
    if (!parsed.success) {
      options.out(`replay: line ${index + 1} of ${file} is not a journal entry (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      return 2;
    }
    entries.push(parsed.data);
  }
  const header = entries[0];
  if (header?.type !== 'header') {
    options.out(`replay: ${file} does not start with a journal header`);
    return 2;
  }
  if (header.config.backend !== 'sim')
    options.out(`replay: the journal was recorded on the "${header.config.backend}" backend; replaying it on the simulator`);

  const backend = new SimBackend(profileOf(header.config), header.config.devices, header.config.seed, header.config.profileJson);
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

  for (const entry of entries.slice(1)) {
    switch (entry.type) {
      case 'header':
      case 'session':
        break;
      case 'reset':
        await backend.reset({ profile: entry.config.profile, devices: entry.config.devices, seed: entry.config.seed });
        processes.clear();
        break;
      case 'process': {
        const opened = backend.openProcess(entry.name);
        if (opened.pid !== entry.pid) differences.push(`process ${entry.name}: recorded pid ${entry.pid}, replayed ${opened.pid}`);
        processes.set(`${entry.session}/${entry.process}`, opened);
        break;
      }
      case 'call': {
        calls += 1;
        const opened = processes.get(`${entry.session}/${entry.process}`);
        if (opened === undefined || !isAclFunctionName(entry.fn)) {
          differences.push(`call ${entry.id} ${entry.fn}: no such process or function`);
          break;
        }
        const fn = entry.fn;
        const normalized = normalizeArgs(fn, entry.args);
        if (!normalized.ok || !argsAreValid(fn, normalized.value)) {
          differences.push(`call ${entry.id} ${fn}: its arguments no longer validate`);
          break;
        }
        const { ret, message, ...out } = await invokeAcl(opened.runtime, fn, normalized.value);
        const queue = pending.get(entry.session) ?? [];
        queue.push({ fn, ret, out, ...(message === undefined ? {} : { message }) });
        pending.set(entry.session, queue);
        break;
      }
      case 'result': {
        const got = pending.get(entry.session)?.shift();
        if (got === undefined) {
          differences.push(`result ${entry.id}: no call before it`);
          break;
        }
        if (got.ret !== entry.ret || canonical(got.out) !== canonical(entry.out ?? {}) || got.message !== entry.message) {
          differences.push(
            `${got.fn} (call ${entry.id}): recorded ret ${entry.ret} ${canonical(entry.out)}, replayed ret ${got.ret} ${canonical(got.out)}`,
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
        `event #${i + 1}: recorded ${canonical(recorded[i]).slice(0, 160)}, replayed ${canonical(replayed[i]).slice(0, 160)}`,
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
