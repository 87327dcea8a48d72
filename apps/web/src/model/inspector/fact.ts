import type { Provenance, Reason } from '@pagelens/core';
import { bytes, exactBytes, type FormatPrefs } from '../format.ts';
import type { RenderedArg } from '../log/arg-format.ts';
import type { Target } from '../log/effects.ts';

/**
 * One line of the inspector: a label (an i18n key under `inspector.fact.`) and a value that is
 * either language-neutral text (numbers, addresses, ACL names) or an i18n key with values.
 */
export interface Fact {
  readonly label: string;
  readonly text?: string;
  readonly key?: string;
  readonly params?: Readonly<Record<string, string | number>>;
  /** The exact byte count beside a rounded size: "1,048,608 B". */
  readonly exact?: string;
  /** Set for values PageLens models rather than the runtime reports (frame placement, DM-11). */
  readonly provenance?: Provenance;
  /** Another object this value names; the inspector makes it a link that selects it. */
  readonly link?: Target;
  readonly tone?: 'warn' | 'error' | 'ok';
}

/** What the inspector shows for one object at the cursor. */
export interface Inspection {
  readonly facts: readonly Fact[];
  /** The decision behind it, each rendered with its rule IDs (DM-3, DM-4…). */
  readonly reasons: readonly Reason[];
  readonly rules: readonly string[];
  /** Objects that belong to it (the mappings of a reservation, the handles of a physical memory). */
  readonly related: readonly { readonly label: string; readonly target: Target }[];
  /** Heading of the related list (i18n key); "Belongs to it" when absent. */
  readonly relatedTitle?: string;
  /** For a call: its arguments and outputs, rendered (enum names, sizes with units, pointers). */
  readonly args?: readonly RenderedArg[];
}

export function text(label: string, value: string, extra: Partial<Fact> = {}): Fact {
  return { label, text: value, ...extra };
}

export function keyed(label: string, key: string, params?: Readonly<Record<string, string | number>>, extra: Partial<Fact> = {}): Fact {
  return { label, key, ...(params === undefined ? {} : { params }), ...extra };
}

/** A size with units and, when the units round, the exact count beside it. */
export function size(label: string, value: number, prefs: FormatPrefs, extra: Partial<Fact> = {}): Fact {
  const rounded = bytes(value, prefs);
  const exact = exactBytes(value);
  return { label, text: rounded, ...(rounded === exact || value < 1024 ? {} : { exact }), ...extra };
}

export function yesNo(label: string, value: boolean, extra: Partial<Fact> = {}): Fact {
  return keyed(label, value ? 'inspector.value.yes' : 'inspector.value.no', undefined, extra);
}

export const EMPTY_INSPECTION: Inspection = { facts: [], reasons: [], rules: [], related: [] };
