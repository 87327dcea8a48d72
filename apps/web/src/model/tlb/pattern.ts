import { type AccessPattern, parseSize, patternAccessCount } from '@pagelens/core';
import { parseCount } from './geometry.ts';

export const PATTERN_KINDS = ['sequential', 'strided', 'random', 'explicit'] as const;
export type PatternKind = (typeof PATTERN_KINDS)[number];

/**
 * Accesses one run may make: 2^24 = 16,777,216, one access per 64-byte cache line of a 1 GiB
 * buffer. At ≥ 20 M accesses/s (DESIGN.md "Scale targets") that is under a second, off the UI thread.
 */
export const MAX_RUN_ACCESSES = 16_777_216;

/** The pattern form as typed; only the fields of `kind` are read. */
export interface PatternDraft {
  readonly kind: PatternKind;
  readonly stride: string;
  readonly passes: string;
  readonly count: string;
  readonly seed: string;
  readonly offsets: string;
}

export const DEFAULT_PATTERN: PatternDraft = { kind: 'sequential', stride: '4 KiB', passes: '1', count: '100000', seed: '1', offsets: '' };

export type PatternField = 'stride' | 'passes' | 'count' | 'seed' | 'offsets' | 'accesses';

/** `code` names an i18n message under tlb.sim.errors; `values` fill it. */
export interface PatternIssue {
  readonly field: PatternField;
  readonly code: 'size' | 'stridePositive' | 'count' | 'atLeastOne' | 'offsetsEmpty' | 'offsetSize' | 'offsetOutside' | 'tooMany';
  readonly values: Readonly<Record<string, string | number>>;
}

export type PatternParse =
  | { readonly ok: true; readonly pattern: AccessPattern; readonly accesses: number }
  | { readonly ok: false; readonly issues: readonly PatternIssue[] };

function stride(text: string, issues: PatternIssue[]): number | undefined {
  const parsed = parseSize(text);
  if (!parsed.ok) {
    issues.push({ field: 'stride', code: 'size', values: { text } });
    return undefined;
  }
  if (parsed.bytes <= 0) {
    issues.push({ field: 'stride', code: 'stridePositive', values: { text } });
    return undefined;
  }
  return parsed.bytes;
}

function atLeastOne(field: PatternField, text: string, issues: PatternIssue[]): number | undefined {
  const value = parseCount(text);
  if (value === undefined) issues.push({ field, code: 'count', values: { text } });
  else if (value < 1) issues.push({ field, code: 'atLeastOne', values: { text } });
  else return value;
  return undefined;
}

/**
 * Offsets pasted as a list: separated by commas, semicolons or new lines, each a size parseSize
 * accepts ("4096", "0x1000", "4 KiB"); a chunk that is no size but holds spaces is read as
 * space-separated offsets, so "0 4096 8192" works too. Every offset must lie in [0, bufferBytes).
 */
export function parseOffsets(text: string, bufferBytes: number, issues: PatternIssue[]): Float64Array | undefined {
  const tokens: string[] = [];
  for (const chunk of text.split(/[,;\n]+/)) {
    const trimmed = chunk.trim();
    if (trimmed === '') continue;
    if (!parseSize(trimmed).ok && /\s/.test(trimmed)) tokens.push(...trimmed.split(/\s+/));
    else tokens.push(trimmed);
  }
  if (tokens.length === 0) {
    issues.push({ field: 'offsets', code: 'offsetsEmpty', values: {} });
    return undefined;
  }
  if (tokens.length > MAX_RUN_ACCESSES) {
    issues.push({ field: 'accesses', code: 'tooMany', values: { accesses: tokens.length, max: MAX_RUN_ACCESSES } });
    return undefined;
  }
  const offsets = new Float64Array(tokens.length);
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] ?? '';
    const parsed = parseSize(token);
    if (!parsed.ok) {
      issues.push({ field: 'offsets', code: 'offsetSize', values: { index: i + 1, text: token } });
      return undefined;
    }
    if (parsed.bytes >= bufferBytes) {
      issues.push({ field: 'offsets', code: 'offsetOutside', values: { index: i + 1, text: token, bytes: bufferBytes } });
      return undefined;
    }
    offsets[i] = parsed.bytes;
  }
  return offsets;
}

/** The access pattern the form describes over a buffer of `bufferBytes`, or every problem with it. */
export function parsePattern(draft: PatternDraft, bufferBytes: number): PatternParse {
  const issues: PatternIssue[] = [];
  let pattern: AccessPattern | undefined;
  switch (draft.kind) {
    case 'sequential': {
      const s = stride(draft.stride, issues);
      const passes = atLeastOne('passes', draft.passes, issues);
      if (s !== undefined && passes !== undefined) pattern = { kind: 'sequential', stride: s, passes };
      break;
    }
    case 'strided': {
      const s = stride(draft.stride, issues);
      const count = atLeastOne('count', draft.count, issues);
      if (s !== undefined && count !== undefined) pattern = { kind: 'strided', stride: s, count };
      break;
    }
    case 'random': {
      const count = atLeastOne('count', draft.count, issues);
      const seed = parseCount(draft.seed);
      if (seed === undefined) issues.push({ field: 'seed', code: 'count', values: { text: draft.seed } });
      if (count !== undefined && seed !== undefined) pattern = { kind: 'random', count, seed };
      break;
    }
    case 'explicit': {
      const offsets = parseOffsets(draft.offsets, bufferBytes, issues);
      if (offsets !== undefined) pattern = { kind: 'explicit', offsets };
      break;
    }
  }
  if (pattern === undefined || issues.length > 0) return { ok: false, issues };
  const accesses = patternAccessCount(pattern, bufferBytes);
  if (accesses > MAX_RUN_ACCESSES) {
    return { ok: false, issues: [{ field: 'accesses', code: 'tooMany', values: { accesses, max: MAX_RUN_ACCESSES } }] };
  }
  return { ok: true, pattern, accesses };
}
