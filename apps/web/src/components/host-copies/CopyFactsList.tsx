import type { HostState } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import type { FormatPrefs } from '../../model/format.ts';
import { type CopyFactsContext, copyFacts, endpointOf, type Fact, waitResource } from '../../model/host-copies/copy-facts.ts';
import { overlapping } from '../../model/host-copies/copy-lanes.ts';
import { rateSpread } from '../../model/host-copies/rate-spread.ts';
import type { Timeline } from '../../model/timeline.ts';

/** The facts of copy `index` at the cursor, with its wait reason from the copy event (CP-4). */
export function factsForCopy(state: HostState, timeline: Timeline | undefined, index: number, prefs: FormatPrefs): Fact[] {
  const copy = state.copies[index];
  if (copy === undefined) return [];
  const event = timeline?.eventAtSeq(copy.seq);
  const waitedFor = waitResource(event?.kind === 'copy' ? event.reasons : undefined);
  const profile = state.devices[copy.device]?.profile;
  const chunkBytes = profile?.bandwidth.stagingChunkBytes;
  const spread = rateSpread(copy.path, profile, event?.provenance === 'observed');
  const context: CopyFactsContext = {
    prefs,
    src: endpointOf(state, copy.pid, copy.src),
    dst: endpointOf(state, copy.pid, copy.dst),
    overlaps: overlapping(state.copies, index).length,
    ...(chunkBytes === undefined ? {} : { chunkBytes }),
    ...(waitedFor === undefined ? {} : { waitedFor }),
    ...(spread === undefined ? {} : { spread }),
  };
  return copyFacts(copy, context);
}

/** Facts as a definition list; `data-fact` names each value for tests and styling. */
export function CopyFactsList({ facts, compact = false }: { facts: readonly Fact[]; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <dl className={`hc-facts${compact ? ' hc-facts-compact' : ''}`}>
      {facts.map((fact) => (
        <div key={fact.label} className="hc-fact">
          <dt>{t(`hostCopies.facts.${fact.label}`)}</dt>
          <dd data-fact={fact.label}>
            {fact.translate === true ? t(fact.value, fact.params ?? {}) : fact.value}
            {fact.rules !== undefined && fact.rules.length > 0 && <span className="hc-rules"> {fact.rules.join(', ')}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
