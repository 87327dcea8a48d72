import type { HostState } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import type { StripTarget } from '../../model/address-space/strip-hit.ts';
import { RangeKind, type StripModel } from '../../model/address-space/strip-model.ts';
import { address, bytes, type FormatPrefs } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';

const TOOLTIP_WIDTH = 280;

interface Line {
  readonly title: string;
  readonly start: number;
  readonly end: number;
  readonly detail?: string;
}

/** What the pointer is over: the object (with its range and pages), an aggregate, a reservation gap or a hole. */
export function StripTooltip({
  model,
  state,
  target,
  x,
  width,
}: {
  model: StripModel;
  state: HostState;
  target: StripTarget;
  x: number;
  width: number;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const line = describe(model, state, target, format, t);
  const left = Math.max(0, Math.min(x + 14, width - TOOLTIP_WIDTH));
  return (
    <div className="address-tooltip" role="tooltip" data-testid="address-tooltip" style={{ left, width: TOOLTIP_WIDTH }}>
      <strong>{line.title}</strong>
      <div className="mono">
        {address(line.start, format)} – {address(line.end, format)}
      </div>
      <div>
        {bytes(line.end - line.start, format)}
        {line.detail !== undefined && <span className="muted"> · {line.detail}</span>}
      </div>
    </div>
  );
}

type T = ReturnType<typeof useTranslation>['t'];

function describe(model: StripModel, state: HostState, target: StripTarget, format: FormatPrefs, t: T): Line {
  if (target.kind === 'hole') return { title: t('addressSpace.tooltip.hole'), start: target.start, end: target.end };
  if (target.kind === 'reserved') {
    const id = model.reservations.id[target.index] ?? 0;
    return { title: t('addressSpace.tooltip.reservation', { id }), start: target.start, end: target.end };
  }
  const set = model.blocks;
  const start = set.start[target.first] ?? 0;
  const end = set.end[target.last - 1] ?? 0;
  if (target.last - target.first > 1) return { title: t('addressSpace.tooltip.many', { count: target.last - target.first }), start, end };
  const id = set.id[target.first] ?? 0;
  if (set.kind[target.first] === RangeKind.mapping) {
    const mapping = state.mappings.get(id);
    const handle = mapping === undefined ? undefined : state.handles.get(mapping.handle);
    const detail =
      handle === undefined
        ? undefined
        : t('addressSpace.tooltip.handle', {
            id: handle.id,
            value: `0x${handle.handle.toString(16)}`,
            pageSize: bytes(set.pageSize[target.first] ?? 0, format),
          });
    return { title: t('addressSpace.tooltip.mapping', { id }), start, end, ...(detail === undefined ? {} : { detail }) };
  }
  if (set.kind[target.first] === RangeKind.ipcImport) {
    // IP-3: the exporter's pages, reached at an address of this process.
    const source = state.allocations.get(id);
    const title = t('addressSpace.tooltip.ipcImport', { id, pid: source?.pid ?? '?' });
    return { title, start, end, detail: t('addressSpace.tooltip.ipcNoPages') };
  }
  const allocation = state.allocations.get(id);
  const title = `${t('addressSpace.tooltip.allocation', { id })}${allocation === undefined ? '' : ` · ${allocation.fn}`}`;
  if (allocation === undefined) return { title, start, end };
  return {
    title,
    start,
    end,
    detail: t('addressSpace.tooltip.pages', { pages: allocation.pages, pageSize: bytes(allocation.pageSize, format) }),
  };
}
