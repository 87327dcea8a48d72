import type { ReactNode } from 'react';
import { ModeledBadge } from './Badges.tsx';

/** One section of the TLB view: its heading, marked modeled (PT-1–PT-3), over its content. */
export function TlbSection({ heading, testId, children }: { heading: string; testId: string; children: ReactNode }) {
  return (
    <div className="tlb-section" data-testid={testId}>
      <h3 className="section-title">
        {heading} <ModeledBadge />
      </h3>
      {children}
    </div>
  );
}
