/** Glyph paths on a 16 × 16 grid; SVG so they render the same whatever fonts the machine has. */
const PATHS = {
  backCall: 'M3 2h2v12H3z M14 2 6 8l8 6z',
  backEvent: 'M11 3 5 8l6 5z',
  play: 'M4 2l10 6-10 6z',
  pause: 'M4 2h3v12H4z M9 2h3v12H9z',
  forwardEvent: 'M5 3l6 5-6 5z',
  forwardCall: 'M2 2l8 6-8 6z M11 2h2v12h-2z',
} as const;

export type TimeIconName = keyof typeof PATHS;

export function TimeIcon({ name }: { name: TimeIconName }) {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
