import type { InputHTMLAttributes } from 'react';

/** A whole number from 1 to `max` (a count of allocations, devices, granules), as the text typed. */
export function CountInput({
  max,
  onText,
  ...rest
}: { max: number; onText: (text: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'min' | 'max' | 'onChange'>) {
  return <input type="number" min={1} max={max} onChange={(event) => onText(event.target.value)} {...rest} />;
}
