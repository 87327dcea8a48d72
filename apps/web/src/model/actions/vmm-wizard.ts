import { aclrtMemAccessFlags, aclrtMemAttr, aclrtMemcpyKind, aclrtMemLocationType, type CallAnswer, MiB } from '@pagelens/core';
import type { BuiltCall } from './built-call.ts';

/** The VMM lifecycle in the order the seed teaches it (VM-1 … VM-8). */
export const WIZARD_STEPS = ['granularity', 'physical', 'reserve', 'map', 'access', 'use', 'unmap', 'release', 'freePhysical'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** Every function a full run calls, lessons aside: the wizard is only offered when the agent offers them all. */
export const WIZARD_FUNCTIONS = [
  'aclrtSetDevice',
  'aclrtMemGetAllocationGranularity',
  'aclrtMallocPhysical',
  'aclrtReserveMemAddress',
  'aclrtMapMem',
  'aclrtMemSetAccess',
  'aclrtMallocHost',
  'aclrtMemcpy',
  'aclrtUnmapMem',
  'aclrtReleaseMemAddress',
  'aclrtFreePhysical',
  'aclrtFreeHost',
] as const;

/** The rule each step demonstrates, shown next to its one-line explanation. */
export const STEP_RULES: Readonly<Record<WizardStep, readonly string[]>> = {
  granularity: ['VM-2'],
  physical: ['VM-3', 'VM-4'],
  reserve: ['VM-5'],
  map: ['VM-6'],
  access: ['VM-7'],
  use: ['VM-1', 'CP-2'],
  unmap: ['VM-8'],
  release: ['VM-8'],
  freePhysical: ['VM-8'],
};

/** The page kinds the wizard offers for aclrtPhysicalMemProp.memAttr (VM-3). */
export const WIZARD_MEM_ATTRS = ['ACL_HBM_MEM_HUGE', 'ACL_HBM_MEM_NORMAL', 'ACL_HBM_MEM_HUGE1G'] as const;

export type Lesson = 'physical-unaligned' | 'map-wrong-size' | 'release-while-mapped' | 'free-physical-while-mapped';

/** What the wizard keeps of a call's answer. */
export type CallResult = Pick<CallAnswer, 'ok' | 'ret' | 'retName' | 'message' | 'out'>;

/** A step's call: built, since a pointer not known yet is named by its C name until it is. */
export type WizardCall = BuiltCall;

export interface CallRecord extends WizardCall {
  readonly result: CallResult;
}

export interface WizardState {
  /** Index into WIZARD_STEPS; WIZARD_STEPS.length once finished. */
  readonly step: number;
  readonly memAttr: number;
  readonly device: number;
  /** Physical size in granules (VM-2: sizes are multiples of the granularity). */
  readonly granules: number;
  readonly direction: 'h2d' | 'd2h';
  readonly granularity?: number;
  readonly handle?: string;
  readonly virPtr?: string;
  readonly hostPtr?: string;
  readonly mapped: boolean;
  /** aclrtFreePhysical was called while mapped: freeing is deferred to the unmap (VM-8). */
  readonly handleFreed: boolean;
  /** Calls made, per step index. */
  readonly records: Readonly<Record<number, readonly CallRecord[]>>;
  /** The last call of the current step failed: the wizard stays here. */
  readonly failed?: CallRecord;
  readonly lesson?: { readonly lesson: Lesson; readonly record: CallRecord };
}

export function startWizard(device: number, memAttr = aclrtMemAttr.byName.ACL_HBM_MEM_HUGE): WizardState {
  return { step: 0, memAttr, device, granules: 1, direction: 'h2d', mapped: false, handleFreed: false, records: {} };
}

export function currentStep(state: WizardState): WizardStep | undefined {
  return WIZARD_STEPS[state.step];
}

/** Bytes of the physical allocation, reservation and mapping. */
export function wizardSize(state: WizardState): number {
  return (state.granularity ?? 2 * MiB) * state.granules;
}

const DEVICE = aclrtMemLocationType.byName.ACL_MEM_LOCATION_TYPE_DEVICE;

function prop(state: WizardState) {
  return { handleType: 0, allocationType: 0, memAttr: state.memAttr, location: { id: state.device, type: DEVICE }, reserve: 0 };
}

/**
 * The calls "Next" still has to make for the current step, in order; the runner makes the first,
 * absorbs its answer and asks again, so later calls see earlier out-values (the copy sees the new
 * hostPtr). A pointer not known yet is shown by its C name. `currentDevice` is the process's current
 * device: memory calls need one (LT-2), so aclrtSetDevice comes first when it differs.
 */
export function callsFor(state: WizardState, currentDevice: number): WizardCall[] {
  const done = new Set((state.records[state.step] ?? []).filter((record) => record.result.ok).map((record) => record.fn));
  return stepCalls(state, currentDevice).filter((call) => !done.has(call.fn));
}

function stepCalls(state: WizardState, currentDevice: number): WizardCall[] {
  const size = wizardSize(state);
  const needsDevice = currentDevice !== state.device;
  const withDevice = (calls: WizardCall[]): WizardCall[] =>
    needsDevice ? [{ fn: 'aclrtSetDevice', args: { deviceId: state.device } }, ...calls] : calls;
  switch (currentStep(state)) {
    case 'granularity':
      // A real runtime answers the query only in a context of the device (107002 before aclrtSetDevice).
      return withDevice([{ fn: 'aclrtMemGetAllocationGranularity', args: { prop: prop(state), option: 0 } }]);
    case 'physical':
      return withDevice([{ fn: 'aclrtMallocPhysical', args: { size, prop: prop(state), flags: 0 } }]);
    case 'reserve':
      return withDevice([{ fn: 'aclrtReserveMemAddress', args: { size, alignment: 0, expectPtr: '0x0', flags: 0 } }]);
    case 'map':
      return [
        { fn: 'aclrtMapMem', args: { virPtr: state.virPtr ?? 'virPtr', size, offset: 0, handle: state.handle ?? 'handle', flags: 0 } },
      ];
    case 'access':
      return [
        {
          fn: 'aclrtMemSetAccess',
          args: {
            virPtr: state.virPtr ?? 'virPtr',
            size,
            desc: [{ flags: aclrtMemAccessFlags.byName.ACL_RT_MEM_ACCESS_FLAGS_READWRITE, location: { id: state.device, type: DEVICE } }],
            count: 1,
          },
        },
      ];
    case 'use': {
      const host = state.hostPtr ?? 'hostPtr';
      const device = state.virPtr ?? 'virPtr';
      const h2d = state.direction === 'h2d';
      const copy: WizardCall = {
        fn: 'aclrtMemcpy',
        args: {
          dst: h2d ? device : host,
          destMax: size,
          src: h2d ? host : device,
          count: size,
          kind: h2d ? aclrtMemcpyKind.byName.ACL_MEMCPY_HOST_TO_DEVICE : aclrtMemcpyKind.byName.ACL_MEMCPY_DEVICE_TO_HOST,
        },
      };
      // A pinned host buffer of the same size, made once (HM-2: DMA straight from it).
      return withDevice(state.hostPtr === undefined ? [{ fn: 'aclrtMallocHost', args: { size } }, copy] : [copy]);
    }
    case 'unmap':
      return [{ fn: 'aclrtUnmapMem', args: { virPtr: state.virPtr ?? 'virPtr' } }];
    case 'release':
      return [{ fn: 'aclrtReleaseMemAddress', args: { virPtr: state.virPtr ?? 'virPtr' } }];
    case 'freePhysical': {
      const tidy: WizardCall[] = state.hostPtr === undefined ? [] : [{ fn: 'aclrtFreeHost', args: { hostPtr: state.hostPtr } }];
      // Freed early while mapped (VM-8): the memory already went at the unmap; only the host buffer is left.
      return state.handleFreed ? tidy : [{ fn: 'aclrtFreePhysical', args: { handle: state.handle ?? 'handle' } }, ...tidy];
    }
    case undefined:
      return [];
  }
}

function outString(result: CallResult, name: string): string | undefined {
  const value = result.out?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** What one call of a step taught the wizard: its out-values, or the failure that keeps it on the step. */
export function absorb(state: WizardState, call: WizardCall, result: CallResult): WizardState {
  const record: CallRecord = { ...call, result };
  const records = { ...state.records, [state.step]: [...(state.records[state.step] ?? []), record] };
  const { failed: _previous, ...rest } = state;
  if (!result.ok) return { ...rest, records, failed: record };
  return effects({ ...rest, records }, call, result);
}

function effects(state: WizardState, call: WizardCall, result: CallResult): WizardState {
  switch (call.fn) {
    case 'aclrtMemGetAllocationGranularity': {
      const granularity = result.out?.granularity;
      return typeof granularity === 'number' ? { ...state, granularity } : state;
    }
    case 'aclrtMallocPhysical': {
      const handle = outString(result, 'handle');
      return handle === undefined ? state : { ...state, handle, handleFreed: false };
    }
    case 'aclrtReserveMemAddress': {
      const virPtr = outString(result, 'virPtr');
      return virPtr === undefined ? state : { ...state, virPtr };
    }
    case 'aclrtMallocHost': {
      const hostPtr = outString(result, 'hostPtr');
      return hostPtr === undefined ? state : { ...state, hostPtr };
    }
    case 'aclrtMapMem':
      return { ...state, mapped: true };
    case 'aclrtUnmapMem':
      return { ...state, mapped: false };
    case 'aclrtFreePhysical':
      // Freed while mapped, the handle is gone for the program but its memory waits for the unmap (VM-8).
      return { ...state, handleFreed: true };
    case 'aclrtFreeHost': {
      const { hostPtr: _freed, ...rest } = state;
      return rest;
    }
    default:
      return state;
  }
}

/** Moves on after every call of the step succeeded. */
export function advance(state: WizardState): WizardState {
  if (state.failed !== undefined || state.step >= WIZARD_STEPS.length) return state;
  return { ...state, step: state.step + 1 };
}

/** The misuse lessons that make sense now: each is one call whose answer teaches a rule. */
export function lessonsAvailable(state: WizardState): Lesson[] {
  const step = currentStep(state);
  const lessons: Lesson[] = [];
  if (step === 'physical' && state.granularity !== undefined) lessons.push('physical-unaligned');
  if (step === 'map' && state.handle !== undefined && state.virPtr !== undefined) lessons.push('map-wrong-size');
  if (state.mapped && state.virPtr !== undefined) lessons.push('release-while-mapped');
  if (state.mapped && state.handle !== undefined && !state.handleFreed) lessons.push('free-physical-while-mapped');
  return lessons;
}

/** The one call of a lesson, with the rule it shows (VM-2, VM-6, VM-8). */
export function lessonCall(state: WizardState, lesson: Lesson): WizardCall & { readonly rule: string; readonly expectOk: boolean } {
  const size = wizardSize(state);
  switch (lesson) {
    case 'physical-unaligned':
      return { fn: 'aclrtMallocPhysical', args: { size: size + MiB, prop: prop(state), flags: 0 }, rule: 'VM-2', expectOk: false };
    case 'map-wrong-size':
      return {
        fn: 'aclrtMapMem',
        args: { virPtr: state.virPtr ?? 'virPtr', size: size / 2, offset: 0, handle: state.handle ?? 'handle', flags: 0 },
        rule: 'VM-6',
        expectOk: false,
      };
    case 'release-while-mapped':
      return { fn: 'aclrtReleaseMemAddress', args: { virPtr: state.virPtr ?? 'virPtr' }, rule: 'VM-8', expectOk: false };
    case 'free-physical-while-mapped':
      return { fn: 'aclrtFreePhysical', args: { handle: state.handle ?? 'handle' }, rule: 'VM-8', expectOk: true };
  }
}

/** Records a lesson's answer; a lesson that changed state (the deferred free) is absorbed too. */
export function absorbLesson(state: WizardState, lesson: Lesson, call: WizardCall, result: CallResult): WizardState {
  const record: CallRecord = { ...call, result };
  const next = result.ok ? effects(state, call, result) : state;
  return { ...next, lesson: { lesson, record } };
}

/** Whether the runtime accepts a lesson's call: only the deferred free succeeds (VM-8). */
export function lessonExpectsOk(lesson: Lesson): boolean {
  return lesson === 'free-physical-while-mapped';
}
