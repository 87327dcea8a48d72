import type { SyntaxNode } from '@lezer/common';
import type { Expr } from './ast.ts';
import { INT, type IntType, LONG, UINT, ULONG } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { kids, type ParseContext } from './parse-context.ts';

/** C literals: integers with their C11 6.4.4.1 type, floats, characters and strings with escapes. */

const INTEGER = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)$/;

export function numberLiteral(ctx: ParseContext, node: SyntaxNode, span: Span): Expr {
  const text = ctx.slice(node).replace(/'/g, '');
  const match = INTEGER.exec(text);
  if (match === null) {
    const single = /[fF]$/.test(text);
    const value = Number(text.replace(/[fFlL]$/, ''));
    if (Number.isNaN(value)) return ctx.fail(node, 'syntax', `"${text}" is not a number`);
    return { kind: 'float', value, single, span };
  }
  const [, digits = '0', suffix = ''] = match;
  const value = /^0[bB]/.test(digits)
    ? BigInt(`0b${digits.slice(2)}`)
    : /^0[0-7]+$/.test(digits)
      ? BigInt(`0o${digits.slice(1)}`)
      : BigInt(digits);
  const type = literalType(value, /^0[xXbB0-7]/.test(digits) && digits !== '0', suffix.toLowerCase());
  if (type === undefined) return ctx.fail(node, 'type', `the integer ${text} does not fit in 64 bits`);
  return { kind: 'int', value, type, text, span };
}

/** C11 6.4.4.1: the first type of the list for the suffix that can hold the value (LP64). */
function literalType(value: bigint, nonDecimal: boolean, suffix: string): IntType | undefined {
  const unsigned = suffix.includes('u');
  const long = suffix.includes('l');
  const candidates: IntType[] = unsigned
    ? long
      ? [ULONG]
      : [UINT, ULONG]
    : long
      ? nonDecimal
        ? [LONG, ULONG]
        : [LONG]
      : nonDecimal
        ? [INT, UINT, LONG, ULONG]
        : [INT, LONG];
  return candidates.find((type) => value < 2n ** BigInt(type.signed ? type.bits - 1 : type.bits));
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', '"': '"', "'": "'", a: '\x07' };

export function decodeString(body: string): string {
  // A backslash ending a line joins the next one (C11 5.1.1.2, phase 2), inside a string too.
  return body.replace(/\\\r?\n/g, '').replace(/\\(x[0-9a-fA-F]+|[0-7]{1,3}|.)/g, (_, esc: string) => {
    if (esc.startsWith('x')) return String.fromCharCode(Number.parseInt(esc.slice(1), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8));
    return ESCAPES[esc] ?? esc;
  });
}

export function stringValue(ctx: ParseContext, node: SyntaxNode): string {
  if (node.name === 'ConcatenatedString')
    return kids(node)
      .map((part) => stringValue(ctx, part))
      .join('');
  const raw = ctx.slice(node);
  const quote = raw.indexOf('"');
  return decodeString(raw.slice(quote + 1, raw.lastIndexOf('"')));
}
