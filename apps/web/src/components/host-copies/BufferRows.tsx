import type { KeyboardEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { address } from '../../model/format.ts';
import type { BufferRow } from '../../model/host-copies/buffer-rows.ts';
import { useFormat } from '../../store/hooks.ts';
import { BytesCell } from '../common/BytesCell.tsx';

/** Host VA over device VA, aligned, so "same or different" is seen before it is read (HM-6). */
function Addresses({ row }: { row: BufferRow }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const r = row.registration;
  const same = row.va === 'same';
  let device: ReactNode;
  if (r === undefined) device = <span className="muted">{t('hostCopies.buffers.notRegistered')}</span>;
  else if (!r.mapped) device = <span className="muted">{t('hostCopies.buffers.noDevicePointer')}</span>;
  else {
    device = (
      <>
        <span className={`mono${same ? '' : ' hc-va-other'}`} data-testid={`device-ptr-${row.id}`}>
          {address(r.devPtr, prefs)}
        </span>{' '}
        <span
          className={`hc-va-badge ${same ? 'hc-va-same' : 'hc-va-differs'}`}
          data-testid={`va-relation-${row.id}`}
          data-relation={row.va}
          title={t(same ? 'hostCopies.buffers.va.sameHint' : 'hostCopies.buffers.va.differsHint')}
        >
          {t(same ? 'hostCopies.buffers.va.same' : 'hostCopies.buffers.va.differs')}
        </span>
      </>
    );
  }
  return (
    <span className="hc-addrs">
      <span className="hc-addr-label">{t('hostCopies.buffers.addr.host')}</span>
      <span className="mono" data-testid={`host-ptr-${row.id}`}>
        {address(row.addr, prefs)}
      </span>
      <span className="hc-addr-label">{t('hostCopies.buffers.addr.device')}</span>
      <span>{device}</span>
    </span>
  );
}

/** The registration line under a registered buffer: call, device, flags by name, and what the device pointer is for. */
function RegistrationLine({ row }: { row: BufferRow }) {
  const { t } = useTranslation();
  const r = row.registration;
  if (r === undefined) return null;
  return (
    <>
      {t('hostCopies.buffers.registeredBy', { fn: r.fn, device: r.device })}{' '}
      <span className="mono hc-flags" data-testid={`reg-flags-${row.id}`}>
        {r.flagNames.join(' | ')}
      </span>
      {r.mapped && row.va === 'same' && <span className="hc-note"> · {t('hostCopies.buffers.va.sameNote')}</span>}
      {r.mapped && row.va === 'differs' && (
        <span className="hc-note" title={t('hostCopies.buffers.va.kernelsOnlyHint')}>
          {' · '}
          {t('hostCopies.buffers.va.kernelsOnly')}
        </span>
      )}
      {!row.agreesWithHm6 && (
        <span className="hc-warn" title={t('hostCopies.buffers.va.disagreesHint')}>
          {' · '}
          {t('hostCopies.buffers.va.disagrees')}
        </span>
      )}
    </>
  );
}

export interface BufferRowsProps {
  readonly row: BufferRow;
  readonly selected: boolean;
  /** The selected copy reads or writes this buffer. */
  readonly related: boolean;
  readonly onSelect: () => void;
}

/** One buffer: its main row and, when registered, the registration line below it (one tbody, one selection). */
export function BufferRows({ row, selected, related, onSelect }: BufferRowsProps) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const onKey = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onSelect();
  };
  const state = `${selected ? ' selected' : ''}${related ? ' hc-related' : ''}`;
  return (
    <tbody className="hc-buffer" data-testid={`host-buffer-${row.id}`}>
      <tr className={`hc-row${state}`} tabIndex={0} aria-selected={selected} onClick={onSelect} onKeyDown={onKey}>
        <td>
          <span className="mono">#{row.id}</span>
          <span className="mono hc-fn">{row.fn}</span>
        </td>
        <td>
          <span className={`hc-mem hc-mem-${row.memory}`} title={t(`hostCopies.buffers.memoryHint.${row.memory}`)}>
            {t(`hostCopies.buffers.memory.${row.memory}`)}
          </span>
          {row.vaFlag && (
            <span className="hc-flag" title={t('hostCopies.buffers.vaFlagHint')}>
              {t('hostCopies.buffers.vaFlag')}
            </span>
          )}
        </td>
        <BytesCell value={row.size} prefs={prefs} />
        <td>
          <Addresses row={row} />
        </td>
      </tr>
      {row.registration !== undefined && (
        <tr className={`hc-reg-row${state}`} onClick={onSelect}>
          <td />
          <td colSpan={3} className="hc-reg">
            <RegistrationLine row={row} />
          </td>
        </tr>
      )}
    </tbody>
  );
}
