import type { InputDecl, Scenario } from '@pagelens/core';
import { DEFAULT_PROGRAM_NAME, isObject } from '@pagelens/core';

/** What the playground edits and runs: a scenario's code with what it needs to run. */
export interface PlaygroundDoc {
  readonly name: string;
  readonly code: string;
  readonly inputs: readonly InputDecl[];
  readonly setup: string;
  /** The function to run when it is neither main nor the only one. */
  readonly entry?: string;
  /** The command line `main(int argc, char** argv)` gets after the program's name (`--device_id 0`); see commandLine. */
  readonly args?: string;
}

/**
 * Why data from outside (a shared link, local storage) was refused: an i18n key under
 * `playground.problems.` and its values, so the UI says it in the reader's language.
 */
export interface Problem {
  readonly key: string;
  readonly values?: Readonly<Record<string, string | number>>;
}

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: Problem };

/** Bounds for anything read from outside: generous for real snippets, small enough for a URL and local storage. */
export const DOC_LIMITS = {
  name: 120,
  code: 100_000,
  setup: 10_000,
  inputs: 64,
  inputName: 64,
  ctype: 64,
  value: 200,
  args: 1000,
} as const;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

function text(record: Record<string, unknown>, field: string, max: number, optional = false): Checked<string | undefined> {
  const value = record[field];
  if (value === undefined && optional) return { ok: true, value: undefined };
  if (typeof value !== 'string') return { ok: false, problem: { key: 'fieldType', values: { field } } };
  if (value.length > max) return { ok: false, problem: { key: 'tooLong', values: { field, max } } };
  return { ok: true, value };
}

function parseInput(value: unknown, index: number): Checked<InputDecl> {
  if (!isObject(value)) return { ok: false, problem: { key: 'fieldType', values: { field: `inputs[${index}]` } } };
  const name = text(value, 'name', DOC_LIMITS.inputName);
  if (!name.ok) return name;
  const ctype = text(value, 'ctype', DOC_LIMITS.ctype);
  if (!ctype.ok) return ctype;
  const initial = text(value, 'value', DOC_LIMITS.value, true);
  if (!initial.ok) return initial;
  if (name.value === undefined || !isIdentifier(name.value)) {
    return { ok: false, problem: { key: 'badInputName', values: { name: String(name.value) } } };
  }
  const decl = { name: name.value, ctype: ctype.value ?? '' };
  return { ok: true, value: initial.value === undefined ? decl : { ...decl, value: initial.value } };
}

/** Reads a playground document from untrusted JSON data; every field is checked and bounded. */
export function parseDoc(value: unknown): Checked<PlaygroundDoc> {
  if (!isObject(value)) return { ok: false, problem: { key: 'notScenario' } };
  const name = text(value, 'name', DOC_LIMITS.name);
  if (!name.ok) return name;
  const code = text(value, 'code', DOC_LIMITS.code);
  if (!code.ok) return code;
  const setup = text(value, 'setup', DOC_LIMITS.setup, true);
  if (!setup.ok) return setup;
  const entry = text(value, 'entry', DOC_LIMITS.inputName, true);
  if (!entry.ok) return entry;
  if (entry.value !== undefined && !isIdentifier(entry.value)) return { ok: false, problem: { key: 'badEntry' } };
  const args = text(value, 'args', DOC_LIMITS.args, true);
  if (!args.ok) return args;
  const rawInputs = value.inputs ?? [];
  if (!Array.isArray(rawInputs)) return { ok: false, problem: { key: 'fieldType', values: { field: 'inputs' } } };
  if (rawInputs.length > DOC_LIMITS.inputs) return { ok: false, problem: { key: 'tooManyInputs', values: { max: DOC_LIMITS.inputs } } };
  const inputs: InputDecl[] = [];
  for (const [index, raw] of rawInputs.entries()) {
    const input = parseInput(raw, index);
    if (!input.ok) return input;
    if (inputs.some((other) => other.name === input.value.name)) {
      return { ok: false, problem: { key: 'duplicateInput', values: { name: input.value.name } } };
    }
    inputs.push(input.value);
  }
  const doc = { name: name.value ?? '', code: code.value ?? '', inputs, setup: setup.value ?? '' };
  const withEntry = entry.value === undefined ? doc : { ...doc, entry: entry.value };
  return { ok: true, value: args.value === undefined || args.value === '' ? withEntry : { ...withEntry, args: args.value } };
}

/** The plain data of a document (what is stored and shared), without undefined fields. */
export function docData(doc: PlaygroundDoc): Record<string, unknown> {
  const data: Record<string, unknown> = {
    name: doc.name,
    code: doc.code,
    inputs: doc.inputs.map((input) => (input.value === undefined ? { name: input.name, ctype: input.ctype } : { ...input })),
    setup: doc.setup,
  };
  if (doc.entry !== undefined) data.entry = doc.entry;
  if (doc.args !== undefined && doc.args !== '') data.args = doc.args;
  return data;
}

export function docFromScenario(scenario: Scenario, language: 'en' | 'zh'): PlaygroundDoc {
  const doc = { name: scenario.title[language], code: scenario.code, inputs: scenario.inputs, setup: scenario.setup };
  return scenario.entry === undefined ? doc : { ...doc, entry: scenario.entry };
}

/** Whether two documents would run the same program (the name aside). */
export function sameProgram(a: PlaygroundDoc, b: PlaygroundDoc): boolean {
  return (
    a.code === b.code &&
    a.setup === b.setup &&
    a.entry === b.entry &&
    (a.args ?? '') === (b.args ?? '') &&
    JSON.stringify(a.inputs) === JSON.stringify(b.inputs)
  );
}

/** main's command line: the program's name, then the words of `args`, split as a POSIX shell splits them. */
export interface CommandLine {
  readonly argv: readonly string[];
  /** 1-based column of a quote that is never closed (its word then runs to the end of the text). */
  readonly unclosedQuote?: number;
}

/**
 * Splits `args` at unquoted blanks; '…' keeps everything literally, "…" and a backslash outside
 * quotes keep the next character (no variables, globs or other shell expansions: PageLens runs no shell).
 */
export function commandLine(args: string | undefined): CommandLine {
  const argv = [DEFAULT_PROGRAM_NAME];
  const text = args ?? '';
  let word: string | undefined;
  let quote: { char: string; at: number } | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (quote !== undefined) {
      if (char === quote.char) quote = undefined;
      else if (char === '\\' && quote.char === '"' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
        word = (word ?? '') + text.charAt(i + 1);
        i += 1;
      } else word = (word ?? '') + char;
    } else if (/\s/.test(char)) {
      if (word !== undefined) argv.push(word);
      word = undefined;
    } else if (char === '"' || char === "'") {
      quote = { char, at: i + 1 };
      word ??= '';
    } else if (char === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text.charAt(i + 1);
      i += 1;
    } else word = (word ?? '') + char;
  }
  if (word !== undefined) argv.push(word);
  return quote === undefined ? { argv } : { argv, unclosedQuote: quote.at };
}

/**
 * A C type for an identifier the code uses undeclared, guessed from its name; the user can change
 * it in the inputs table. Streams, handles and pointers by their usual names, else a size.
 */
export function guessInputType(name: string): string {
  const lower = name.toLowerCase();
  if (lower.includes('stream')) return 'aclrtStream';
  if (lower.includes('handle')) return 'aclrtDrvMemHandle';
  if (/(ptr|addr|buf|buffer)$/.test(lower) || lower.startsWith('ptr')) return 'void*';
  if (/(device|dev)id$/.test(lower) || lower === 'device' || lower === 'id' || lower === 'flags') return 'int32_t';
  return 'size_t';
}

/** The default value for a new input of `ctype`: 4 MiB for sizes (the guide's example), none for handles and pointers. */
export function defaultInputValue(ctype: string): string | undefined {
  if (ctype === 'size_t' || ctype === 'uint64_t' || ctype === 'int64_t') return '4 MiB';
  if (ctype === 'int32_t' || ctype === 'int' || ctype === 'uint32_t') return '0';
  return undefined;
}
