import type { HostState } from '@pagelens/core';
import { Fragment, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import { kernelRefusesMallocRegister, processBuffers } from '../../model/host-copies/buffer-rows.ts';
import { ofProcess } from '../../model/processes/process-filter.ts';
import { useFormat } from '../../store/hooks.ts';
import { selectImported } from '../../store/import-slice.ts';
import { selectSession } from '../../store/session-slice.ts';
import { selectProcessFilter } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { BufferRows } from './BufferRows.tsx';

/** Pageable, pinned and registered host buffers per process, with device pointers and VA consistency (HM-1…HM-7). */
export function HostBuffersPanel({ state, relatedBuffers }: { state: HostState; relatedBuffers: ReadonlySet<number> }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const session = useAppStore(selectSession);
  // A recording says nothing of the host it ran on: no kernel, and no Actions to allocate with.
  const recording = useAppStore(selectImported) !== undefined;
  const selection = useAppStore((s) => s.selection);
  const select = useAppStore((s) => s.select);
  const filter = useAppStore(selectProcessFilter);
  // The state at the cursor is mutated in place while live: its seq says when to look again.
  const groups = useMemo(() => ofProcess(filter, processBuffers(state)), [state, state.seq, filter]);
  const kernel = session?.host.kernelVersion ?? state.devices[0]?.profile.host.kernelVersion ?? '';
  const page = session?.host.hostPageSize ?? state.devices[0]?.profile.host.pageSize ?? 4096;
  const refuses = kernel !== '' && kernelRefusesMallocRegister(kernel);
  return (
    <section className="panel hc-buffers" aria-labelledby="hc-buffers-title" data-testid="host-buffers">
      <header className="hc-head">
        <h2 id="hc-buffers-title" className="section-title">
          {t('hostCopies.buffers.title')}
        </h2>
        {!recording && (
          <span className="muted hc-kernel" data-testid="host-kernel">
            {t('hostCopies.buffers.kernel', { version: kernel, page: bytes(page, prefs) })}
          </span>
        )}
      </header>
      {refuses && !recording && (
        <p className="hc-callout" role="note" data-testid="kernel-note">
          {t('hostCopies.buffers.kernelNote')}
        </p>
      )}
      {groups.length === 0 ? (
        <p className="muted hc-empty">{t(recording ? 'hostCopies.buffers.emptyRecording' : 'hostCopies.buffers.empty')}</p>
      ) : (
        <div className="hc-table-wrap">
          <table className="data hc-table">
            <thead>
              <tr>
                <th>{t('hostCopies.buffers.columns.buffer')}</th>
                <th>{t('hostCopies.buffers.columns.memory')}</th>
                <th className="num">{t('hostCopies.buffers.columns.size')}</th>
                <th>{t('hostCopies.buffers.columns.addresses')}</th>
              </tr>
            </thead>
            {groups.map((group) => (
              <Fragment key={group.pid}>
                <tbody>
                  <tr className="hc-process">
                    <th colSpan={4} scope="rowgroup">
                      {group.name === ''
                        ? t('hostCopies.buffers.process', { pid: group.pid })
                        : t('hostCopies.buffers.processNamed', { pid: group.pid, name: group.name })}
                      <span className="muted">
                        {' · '}
                        {t('hostCopies.buffers.summary', {
                          pageable: bytes(group.pageableBytes, prefs),
                          pinned: bytes(group.pinnedBytes, prefs),
                          registered: group.registered,
                        })}
                      </span>
                    </th>
                  </tr>
                </tbody>
                {group.rows.map((row) => (
                  <BufferRows
                    key={row.id}
                    row={row}
                    selected={selection?.kind === 'host' && selection.id === row.id}
                    related={relatedBuffers.has(row.id)}
                    onSelect={() => select({ kind: 'host', id: row.id })}
                  />
                ))}
              </Fragment>
            ))}
          </table>
        </div>
      )}
    </section>
  );
}
