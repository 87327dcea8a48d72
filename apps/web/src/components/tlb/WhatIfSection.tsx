import { aclrtMemMallocPolicy, formatInteger, shortName, WHAT_IF_POLICIES } from '@pagelens/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { address, bytes } from '../../model/format.ts';
import { LIVE_KEY, requestOf, shortPolicyName, WhatIfCache, whatIfInput } from '../../model/tlb/what-if.ts';
import { useFormat } from '../../store/hooks.ts';
import { selectSelection } from '../../store/selection-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { FiguresHead } from '../common/FiguresHead.tsx';
import type { SectionProps } from './CoverageSection.tsx';
import { TlbSection } from './TlbSection.tsx';
import { WhatIfChart } from './WhatIfChart.tsx';

/** Per-(fn, size) outcomes survive re-renders and visits to other tabs. */
const cache = new WhatIfCache();
/** The policies the what-if compares, by the names their explanations are filed under. */
const POLICY_KEYS = WHAT_IF_POLICIES.map((policy) => shortName(aclrtMemMallocPolicy, policy));

/** Part 2: the live allocations under each policy (DM-4 … DM-7), as a chart and in numbers, with DM-14's advice. */
export function WhatIfSection({ state, device, stamp }: SectionProps) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const { profile } = device;
  // biome-ignore lint/correctness/useExhaustiveDependencies: stamp changes whenever the state does
  const input = useMemo(() => whatIfInput(state, device.id), [stamp, state, device]);
  const rows = useMemo(() => [input.live, ...cache.totals(input.requests, profile)], [input, profile]);
  const count = input.requests.length;
  const hasPhysical = [...state.physical.values()].some((memory) => memory.device === device.id);
  const selection = useAppStore(selectSelection);
  const selected = selection?.kind === 'allocation' ? state.allocations.get(selection.id) : undefined;
  const selectedRequest = selected !== undefined && selected.device === device.id ? requestOf(selected) : undefined;
  const selectedRows = selectedRequest === undefined ? undefined : cache.totals([selectedRequest], profile);
  return (
    <TlbSection heading={t('tlb.whatIf.heading')} testId="tlb-whatif">
      {count === 0 ? (
        <p className="tlb-empty" data-testid="tlb-whatif-empty">
          {t('tlb.whatIf.empty', { device: device.id })}
        </p>
      ) : (
        <>
          <p className="tlb-intro muted">{t('tlb.whatIf.intro', { count, device: device.id })}</p>
          <WhatIfChart rows={rows} />
          {selected !== undefined && selectedRows !== undefined && (
            <p className="tlb-whatif-selected selected-item" data-testid="tlb-whatif-selected">
              {t('tlb.whatIf.selected', { address: address(selected.addr, prefs), size: bytes(selected.size, prefs), fn: selected.fn })}{' '}
              {selectedRows
                .map((row) =>
                  row.refused > 0
                    ? t('tlb.whatIf.selectedRefused', { policy: shortPolicyName(row.key) })
                    : t('tlb.whatIf.selectedItem', {
                        policy: shortPolicyName(row.key),
                        ptes: formatInteger(row.ptes),
                        waste: bytes(row.waste, prefs),
                      }),
                )
                .join(' · ')}
            </p>
          )}
          <div className="tlb-wide">
            <table className="data" data-testid="tlb-whatif-table">
              <FiguresHead
                prefix="tlb.whatIf.cols"
                first="policy"
                figures={['normal', 'huge', 'giant', 'occupied', 'waste', 'ptes', 'refused']}
              />
              <tbody>
                {rows.map((row) => (
                  <tr key={row.key} className={row.key === LIVE_KEY ? 'tlb-live-row' : undefined}>
                    <td className="mono" title={row.key === LIVE_KEY ? t('tlb.whatIf.liveTip') : row.key}>
                      {row.key === LIVE_KEY ? t('tlb.whatIf.live') : shortPolicyName(row.key)}
                    </td>
                    <td className="num">{formatInteger(row.pages.normal)}</td>
                    <td className="num">{formatInteger(row.pages.huge)}</td>
                    <td className="num">{formatInteger(row.pages.giant)}</td>
                    <td className="num">{bytes(row.occupied, prefs)}</td>
                    <td className="num">{bytes(row.waste, prefs)}</td>
                    <td className="num">{formatInteger(row.ptes)}</td>
                    <td className={row.refused > 0 ? 'num tlb-refused' : 'num'}>{formatInteger(row.refused)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {hasPhysical && <p className="tlb-note muted">{t('tlb.whatIf.physicalNote')}</p>}
      <h4 className="tlb-subtitle">{t('tlb.whatIf.policiesHeading')}</h4>
      <dl className="tlb-policies">
        {POLICY_KEYS.map((key) => (
          <div key={key}>
            <dt className="mono">{key}</dt>
            <dd>{t(`tlb.whatIf.policies.${key}`)}</dd>
          </div>
        ))}
      </dl>
      <h4 className="tlb-subtitle">{t('tlb.whatIf.adviceHeading')}</h4>
      <p className="tlb-advice" data-testid="tlb-advice">
        {t('tlb.whatIf.advice')}
      </p>
    </TlbSection>
  );
}
