import { aclrtMemAttr, aclrtMemMallocPolicy, formatBytes, MEM_POLICY_MASK } from '@pagelens/core';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { address, bytes, exactBytes, type FormatPrefs } from '../../model/format.ts';
import type { CellInfo, OwnerInfo } from '../../model/page-map/describe.ts';

function policyName(policy: number): string {
  return aclrtMemMallocPolicy.nameOf(policy & MEM_POLICY_MASK) ?? `0x${policy.toString(16)}`;
}

function OwnerLines({ owner, prefs }: { owner: OwnerInfo; prefs: FormatPrefs }) {
  const { t } = useTranslation();
  if (owner.kind === 'physical') {
    return (
      <>
        <div className="tip-owner">{t('pageMap.tip.physical', { id: owner.id })}</div>
        <div>{t('pageMap.tip.physicalSize', { size: bytes(owner.size, prefs) })}</div>
        <div className="mono">{t('pageMap.tip.memAttr', { attr: aclrtMemAttr.nameOf(owner.memAttr) ?? owner.memAttr })}</div>
      </>
    );
  }
  return (
    <>
      <div className="tip-owner">{t('pageMap.tip.allocation', { id: owner.id })}</div>
      <div className="mono">{t('pageMap.tip.address', { address: address(owner.addr, prefs) })}</div>
      <div>{t('pageMap.tip.size', { size: bytes(owner.size, prefs), padded: exactBytes(owner.padded) })}</div>
      <div className="mono">{t('pageMap.tip.via', { fn: owner.fn, policy: policyName(owner.policy) })}</div>
    </>
  );
}

/** What is under the pointer: the frame or page, its modeled physical range, kind and owner. */
export interface TooltipPlace {
  readonly x: number;
  readonly y: number;
  /** Size of the map box, to keep the tooltip inside it. */
  readonly width: number;
  readonly height: number;
}

/** Below-right of the pointer, flipped left or up in the far half of the box so it never leaves the map. */
function placement({ x, y, width, height }: TooltipPlace): CSSProperties {
  return {
    ...(x > width / 2 ? { right: Math.max(4, width - x + 14) } : { left: x + 16 }),
    ...(y > height / 2 ? { bottom: Math.max(4, height - y + 12) } : { top: y + 14 }),
  };
}

export function PageMapTooltip({ info, place, prefs }: { info: CellInfo; place: TooltipPlace; prefs: FormatPrefs }) {
  const { t } = useTranslation();
  const hex = { ...prefs, addresses: 'hex' as const };
  const selectable = info.owner !== undefined;
  return (
    <div className="page-map-tip" role="tooltip" data-testid="page-map-tooltip" style={placement(place)}>
      <div className="tip-title">
        {info.page === undefined
          ? t('pageMap.tip.frame', { index: info.frame.toLocaleString('en-US') })
          : t('pageMap.tip.page', { index: info.page, count: info.pagesPerFrame, frame: info.frame.toLocaleString('en-US') })}
      </div>
      <div className="mono muted">
        {t('pageMap.tip.range', { start: address(info.start, hex), end: address(info.end - 1, hex) })}{' '}
        <span className="provenance provenance-modeled">{t('common.provenance.modeled')}</span>
      </div>
      <div>
        {info.page === undefined
          ? t(`pageMap.tip.kind.${info.kind}`)
          : info.owner === undefined
            ? t('pageMap.tip.freePage')
            : t('pageMap.tip.usedPage', { size: formatBytes(info.pageSize, 'binary') })}
      </div>
      {info.kind === 'huge' && info.page === undefined && <div className="muted">{t('pageMap.tip.hugeHere')}</div>}
      {info.giant !== undefined && (
        <div>
          {t('pageMap.tip.giantBlock', { first: info.giant.first.toLocaleString('en-US'), last: info.giant.last.toLocaleString('en-US') })}
        </div>
      )}
      {info.kind === 'split' && info.page === undefined && (
        <div>
          {t('pageMap.tip.used', { used: info.used, total: info.pagesPerFrame })} · {t('pageMap.tip.owners', { count: info.owners })}
        </div>
      )}
      {info.owner !== undefined && <OwnerLines owner={info.owner} prefs={prefs} />}
      {info.kind === 'split' && info.page === undefined && info.owners > 1 && <div className="muted">{t('pageMap.tip.zoomForPages')}</div>}
      {selectable && <div className="muted tip-click">{t('pageMap.tip.click')}</div>}
    </div>
  );
}
