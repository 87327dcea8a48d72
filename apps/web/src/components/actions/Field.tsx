import type { ReactNode } from 'react';

/** One labelled control of an action form: the label names the control with `id`. */
export function Field({ id, label, inline = false, children }: { id: string; label: ReactNode; inline?: boolean; children: ReactNode }) {
  return (
    <div className={inline ? 'act-field act-inline' : 'act-field'}>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
