import { bytes, exactBytes, type FormatPrefs } from '../../model/format.ts';

/** A table cell holding a size: rounded in the chosen units, the exact byte count on hover. */
export function BytesCell({ value, prefs, className = 'num' }: { value: number; prefs: FormatPrefs; className?: string }) {
  return (
    <td className={className} title={exactBytes(value)}>
      {bytes(value, prefs)}
    </td>
  );
}
