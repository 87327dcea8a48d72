import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';

/**
 * The app's monospace stack with CJK monospace fonts before the generic family, so the samples'
 * Chinese comments render in the editor on Linux desktops too (WenQuanYi, Noto CJK, Sarasa).
 */
const CODE_FONT =
  'ui-monospace, "SFMono-Regular", "Cascadia Code", "Noto Sans Mono", "DejaVu Sans Mono", "Noto Sans Mono CJK SC", "WenQuanYi Micro Hei Mono", "Sarasa Mono SC", "Microsoft YaHei Mono", monospace';

/** Token colours per theme; the chrome (background, gutters, focus) follows the app's CSS variables. */
const PALETTE = {
  light: { comment: '#6a737d', keyword: '#cf222e', type: '#953800', number: '#0550ae', string: '#0a3069', macro: '#116329', fn: '#8250df' },
  dark: { comment: '#8b949e', keyword: '#ff7b72', type: '#ffa657', number: '#79c0ff', string: '#a5d6ff', macro: '#7ee787', fn: '#d2a8ff' },
} as const;

function highlight(dark: boolean): HighlightStyle {
  const c = dark ? PALETTE.dark : PALETTE.light;
  return HighlightStyle.define([
    { tag: [tags.comment, tags.lineComment, tags.blockComment], color: c.comment, fontStyle: 'italic' },
    { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.modifier], color: c.keyword },
    { tag: [tags.typeName, tags.standard(tags.typeName)], color: c.type },
    { tag: [tags.number, tags.bool, tags.null], color: c.number },
    { tag: [tags.string, tags.character], color: c.string },
    { tag: [tags.macroName, tags.processingInstruction], color: c.macro },
    { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: c.fn },
  ]);
}

/** The editor's look for one theme: token colours and the CodeMirror chrome. */
export function editorTheme(dark: boolean): Extension {
  return [
    syntaxHighlighting(highlight(dark)),
    EditorView.theme(
      {
        '&': { backgroundColor: 'var(--panel)', color: 'var(--fg)', fontSize: '12.5px' },
        '.cm-content': { fontFamily: CODE_FONT, caretColor: 'var(--fg)' },
        '.cm-scroller': { fontFamily: CODE_FONT, lineHeight: '1.5' },
        '.cm-gutters': { backgroundColor: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
        '&.cm-focused': { outline: 'none' },
        '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--fg)' },
        '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': {
          backgroundColor: dark ? '#264f78' : '#cfe0fc',
        },
        '.cm-activeLineGutter': { backgroundColor: 'transparent', color: 'var(--fg)' },
      },
      { dark },
    ),
  ];
}
