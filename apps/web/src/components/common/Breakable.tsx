import { Fragment } from 'react';

/**
 * Text whose C names may wrap only after an underscore: `ACL_MEM_MALLOC_HUGE_FIRST` in a narrow
 * column becomes `ACL_MEM_MALLOC_` / `HUGE_FIRST`, never `…HUGE_FIR` / `ST`. The <wbr>s leave the
 * text itself (copying, searching) unchanged.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=_)/);
  return (
    <>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order.
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
