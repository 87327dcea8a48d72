import type { CodedText } from '../model/events.ts';
import { fillTemplate } from '../model/reasons.ts';
import { AGENT_TEXTS_EN } from './agent-texts.ts';
import type { ValuesArg } from './placeholders.ts';
import { SIM_COPY_TEXTS_EN } from './sim-copy-texts.ts';
import { SIM_MEMORY_TEXTS_EN } from './sim-memory-texts.ts';
import { SIM_TEXTS_EN } from './sim-texts.ts';
import { SIM_VMM_TEXTS_EN } from './sim-vmm-texts.ts';

/**
 * Every text PageLens sends to people, by code, in English: the one table of message codes.
 * `{{name}}` inserts a value, `{{name, int}}` and `{{name, size}}` format a number (as for reasons),
 * and `{{name, text}}` inserts the text whose code the value names, filled from the same values
 * (a failure that wraps another). Each part is its own file; a test checks no code is in two.
 */
export const TEXT_PARTS = {
  agent: AGENT_TEXTS_EN,
  sim: SIM_TEXTS_EN,
  simMemory: SIM_MEMORY_TEXTS_EN,
  simCopy: SIM_COPY_TEXTS_EN,
  simVmm: SIM_VMM_TEXTS_EN,
} as const;

export const TEXT_TEMPLATES_EN = {
  ...AGENT_TEXTS_EN,
  ...SIM_TEXTS_EN,
  ...SIM_MEMORY_TEXTS_EN,
  ...SIM_COPY_TEXTS_EN,
  ...SIM_VMM_TEXTS_EN,
} as const;

export type TextCode = keyof typeof TEXT_TEMPLATES_EN;

/** A text of the table with the values its template names (the type checker holds them to it). */
export interface Text<C extends TextCode = TextCode> extends CodedText {
  readonly code: C;
}

export function text<C extends TextCode>(code: C, ...values: ValuesArg<(typeof TEXT_TEMPLATES_EN)[C]>): Text<C> {
  const [given] = values;
  return given === undefined ? { code } : { code, values: given };
}

const TEMPLATES: ReadonlyMap<string, string> = new Map(Object.entries(TEXT_TEMPLATES_EN));
const NESTED = /\{\{\s*(\w+)\s*,\s*text\s*\}\}/g;

/** The template of `code` with its `{{name, text}}` parts replaced by the texts they name. */
function expand(code: string, values: Readonly<Record<string, number | string>>, depth: number): string | undefined {
  const template = TEMPLATES.get(code);
  if (template === undefined || depth > 4) return undefined;
  return template.replace(NESTED, (_all, name: string) => expand(String(values[name]), values, depth + 1) ?? String(values[name] ?? '?'));
}

/** The English text of a coded text; an unknown code (a newer agent) reads as the code itself. */
export function describeText(coded: CodedText): string {
  const values = coded.values ?? {};
  const template = expand(coded.code, values, 0);
  return template === undefined ? coded.code : fillTemplate(template, values);
}

/** The message and its code as they travel: `{ message, messageCode }`. */
export function withText(coded: CodedText): { readonly message: string; readonly messageCode: CodedText } {
  return { message: describeText(coded), messageCode: coded };
}

/** A host note as it travels in the welcome: its parts' English joined with "; ", and the parts. */
export function noteOf(parts: readonly CodedText[]): { readonly note: string; readonly noteParts: CodedText[] } {
  return { note: parts.map(describeText).join('; '), noteParts: [...parts] };
}
