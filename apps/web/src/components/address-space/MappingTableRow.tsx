import { aclrtMemAccessFlags } from '@pagelens/core';
import type { TFunction } from 'i18next';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { frameRuns, type MappingRow } from '../../model/address-space/table-rows.ts';
import { ownerColor } from '../../model/colors.ts';
import { address, bytes, type FormatPrefs } from '../../model/format.ts';
import { BytesCell } from '../common/BytesCell.tsx';

export interface MappingTableRowProps {
  readonly row: MappingRow;
  readonly index: number;
  readonly selected: boolean;
  readonly active: boolean;
  readonly format: FormatPrefs;
  readonly dark: boolean;
  readonly onClick: (index: number) => void;
}

const FLAG_TEXT: Readonly<Record<string, string>> = {
  ACL_RT_MEM_ACCESS_FLAGS_READWRITE: 'rw',
  ACL_RT_MEM_ACCESS_FLAGS_READ: 'r',
  ACL_RT_MEM_ACCESS_FLAGS_NONE: 'none',
};

/** The call that made a row (an allocation names its own function); shown, or the kind's tooltip. */
const OWNER: Partial<Record<MappingRow['kind'], string>> = {
  mapping: 'aclrtMapMem',
  reservation: 'aclrtReserveMemAddress',
  ipcImport: 'aclrtIpcMemImportByKey',
};

export function rowDomId(index: number): string {
  return `mapping-row-${index}`;
}

/** One row of the mapping table (fixed height; the table positions it). */
export const MappingTableRow = memo(function MappingTableRow({
  row,
  index,
  selected,
  active,
  format,
  dark,
  onClick,
}: MappingTableRowProps) {
  const { t } = useTranslation();
  const end = row.start + row.size;
  const classes = ['mapping-row', selected ? 'selected' : '', active ? 'active' : '', `mapping-row-${row.kind}`].filter(Boolean).join(' ');
  return (
    <tr
      id={rowDomId(index)}
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={classes}
      data-kind={row.kind}
      data-id={row.id}
      onClick={() => onClick(index)}
    >
      <td className="mt-range" title={`${address(row.start, format)} – ${address(end, format)}`}>
        <span className="mt-line">
          <span
            className={`mt-swatch mt-swatch-${row.kind}`}
            style={row.kind === 'reservation' ? undefined : { background: ownerColor(row.color, dark) }}
          />
          <span className="mt-kind" title={OWNER[row.kind]}>
            {t(`addressSpace.table.kind.${row.kind}`)} #{row.id}
          </span>
          {/* "map" and "reserve" already name their call; an allocation's or an import's function tells more. */}
          {(row.kind === 'allocation' || row.kind === 'ipcImport') && (
            <span className="mt-owner mono">{row.kind === 'allocation' ? row.fn : OWNER.ipcImport}</span>
          )}
        </span>
        <span className="mt-line mono">
          {address(row.start, format)} – {address(end, format)}
        </span>
      </td>
      <BytesCell value={row.size} prefs={format} className="mt-size num" />
      <td className="mt-page">
        <span className="mt-wrap">{pageText(row, format, t)}</span>
      </td>
      <Backing row={row} format={format} />
      <Access row={row} />
    </tr>
  );
});

function pageText(row: MappingRow, format: FormatPrefs, t: TFunction): string {
  if (row.kind === 'reservation' || row.pageSize === undefined) return '—';
  const kind = row.pageClass === undefined ? '' : t(`addressSpace.table.pageClass.${row.pageClass}`);
  return `${bytes(row.pageSize, format)} ${kind}`.trim();
}

function Backing({ row, format }: { row: MappingRow; format: FormatPrefs }) {
  const { t } = useTranslation();
  if (row.kind === 'allocation') {
    // Only rows in view are rendered, so frames are worked out here rather than for all 100,000 rows.
    const frames = frameRuns(row, row.pagesPerFrame);
    const first = frames[0];
    // No runs at all: a real runtime's backend, which records no frames rather than model them.
    if (first === undefined && row.pages > 0) {
      return (
        <td className="mt-backing" title={t('addressSpace.table.unobservedFramesTitle')}>
          <span className="mt-line">{t('addressSpace.table.pages', { pages: row.pages, pageSize: bytes(row.pageSize, format) })}</span>
          <span className="mt-sep"> · </span>
          <span className="mt-line muted">{t('addressSpace.table.unobservedFrames')}</span>
        </td>
      );
    }
    const text =
      first === undefined
        ? '—'
        : t(first[0] === first[1] ? 'addressSpace.table.frame' : 'addressSpace.table.frameRange', { first: first[0], last: first[1] }) +
          (frames.length > 1 ? ` ${t('addressSpace.table.moreRuns', { count: frames.length - 1 })}` : '');
    return (
      <td className="mt-backing hatch-soft" title={t('addressSpace.table.modeledFrames')}>
        <span className="mt-line">{t('addressSpace.table.pages', { pages: row.pages, pageSize: bytes(row.pageSize, format) })}</span>
        <span className="mt-sep"> · </span>
        <span className="mt-line">{text}</span>
      </td>
    );
  }
  if (row.kind === 'ipcImport') {
    // IP-3: the exporter's pages, none of this process's own.
    return (
      <td className="mt-backing" title={row.key}>
        <span className="mt-wrap">{t('addressSpace.table.ipcBacking', { id: row.source, pid: row.exporter ?? '?' })}</span>
      </td>
    );
  }
  if (row.kind === 'mapping') {
    const value = row.handleValue === undefined ? '?' : `0x${row.handleValue.toString(16)}`;
    return (
      <td className="mt-backing mono">
        <span className="mt-wrap">{t('addressSpace.table.handle', { id: row.handleId, value })}</span>
      </td>
    );
  }
  return (
    <td className="mt-backing">
      <span className="mt-wrap">
        {row.unmapped > 0
          ? t('addressSpace.table.unmapped', { unmapped: bytes(row.unmapped, format), size: bytes(row.size, format) })
          : t('addressSpace.table.fullyMapped', { count: row.mappings })}
      </span>
    </td>
  );
}

function Access({ row }: { row: MappingRow }) {
  const { t } = useTranslation();
  if (row.kind === 'reservation') {
    return <td className="mt-access">{t('addressSpace.table.accessNone')}</td>;
  }
  if (row.kind === 'allocation' || row.kind === 'ipcImport') {
    return <td className="mt-access">{t('addressSpace.table.accessDevice', { device: row.device })}</td>;
  }
  const grants = row.access.map((grant) =>
    t('addressSpace.table.accessGrant', {
      device: grant.device,
      flags: FLAG_TEXT[aclrtMemAccessFlags.nameOf(grant.flags) ?? ''] ?? grant.flags,
    }),
  );
  // VM-7 (modeled): mapping alone makes the range usable on the memory's own device.
  const own = row.access.some((grant) => grant.device === row.device);
  return (
    <td className="mt-access">
      <span className="mt-wrap">
        {grants.join(', ')}
        {!own && (
          <span className="mt-modeled" title={t('addressSpace.table.accessOwn', { device: row.device })}>
            {grants.length > 0 ? ', ' : ''}
            {t('addressSpace.table.accessOwn', { device: row.device })}
          </span>
        )}
      </span>
    </td>
  );
}
