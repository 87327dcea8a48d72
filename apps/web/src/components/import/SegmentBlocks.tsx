import { BAD_STACK, blockStateAt, type ImportedBlock, NO_STACK, stackContains, stackFrames } from '@pagelens/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import type { Target } from '../../model/log/effects.ts';
import type { Timeline } from '../../model/timeline.ts';
import { useCursorSeq, useCursorState, useFormat, useTimeline } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { SegmentBar } from './SegmentBar.tsx';
import { blockKey } from './segment-bar-model.ts';
import { useBlockFrames } from './useBlockFrames.ts';

const hex = (value: bigint): string => (value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`);

function Stack({ block, open }: { block: ImportedBlock; open: boolean }) {
  const { t } = useTranslation();
  const stacks = useAppStore((state) => state.importedStacks);
  const id = stacks === undefined ? NO_STACK : block.stack;
  if (id === BAD_STACK) return <span className="muted">{t('fileImport.blocks.badStack')}</span>;
  const frames = stacks === undefined || id === NO_STACK ? [] : stackFrames(stacks, id);
  if (frames.length === 0) return <span className="muted">{t('fileImport.blocks.noStack')}</span>;
  return (
    <details open={open || undefined}>
      <summary>{t('fileImport.blocks.stack', { count: frames.length })}</summary>
      <ol className="stack mono" data-testid="block-stack">
        {frames.map((frame, index) => (
          // Frames repeat within a stack (recursion), so the index is part of the key.
          // biome-ignore lint/suspicious/noArrayIndexKey: a stack's order is fixed
          <li key={index}>
            {frame.name}{' '}
            <span className="muted">
              {frame.filename}:{frame.line}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The address the file recorded for the object made at `createdSeq`: its modeled call's `recorded` argument. */
function recordedAddress(timeline: Timeline | undefined, createdSeq: number): string | undefined {
  const made = timeline?.eventAtSeq(createdSeq);
  const call = made !== undefined && 'call' in made && made.call !== undefined ? timeline?.eventAtSeq(made.call) : undefined;
  const recorded = call?.kind === 'call' ? call.args.recorded : undefined;
  return typeof recorded === 'string' ? recorded : undefined;
}

/** The first 200 blocks, and the chosen one wherever it is. */
function listed(blocks: readonly ImportedBlock[], chosen: string | undefined): readonly ImportedBlock[] {
  const first = blocks.slice(0, 200);
  if (chosen === undefined || first.some((block) => blockKey(block) === chosen)) return first;
  const block = blocks.find((candidate) => blockKey(candidate) === chosen);
  return block === undefined ? first : [...first, block];
}

/** In the inspector of an imported file: the caching allocator's blocks inside the selected segment at the cursor. */
export function SegmentBlocks({ target }: { target: Target }) {
  const { t } = useTranslation();
  const index = useAppStore((state) => state.importedBlocks);
  const state = useCursorState();
  const seq = useCursorSeq();
  const format = useFormat();
  const timeline = useTimeline();
  const filter = useAppStore((s) => s.stackFilter);
  const framesOf = useBlockFrames();
  // The block chosen in the bar: marked and opened in the list, which keeps it even past its first 200.
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  if (index === undefined || state === undefined) return null;
  const object =
    target.kind === 'allocation' ? state.allocations.get(target.id) : target.kind === 'mapping' ? state.mappings.get(target.id) : undefined;
  if (object === undefined) return null;
  const inSegment = index.within(object.device, object.addr, object.size, seq);
  const blocks = filter.trim() === '' ? inSegment : inSegment.filter((block) => stackContains(block, filter, framesOf));
  const recorded = recordedAddress(timeline, object.createdSeq);
  return (
    <section className="inspector-section segment-blocks" data-testid="segment-blocks">
      <dl className="facts" data-testid="segment-addresses">
        <dt>{t('fileImport.blocks.modelAddress')}</dt>
        <dd className="mono" data-testid="segment-model-address">
          0x{object.addr.toString(16)}
        </dd>
        <dt>{t('fileImport.blocks.recordedAddress')}</dt>
        <dd className="mono" data-testid="segment-recorded-address">
          {recorded ?? t('fileImport.blocks.notRecorded')}
        </dd>
      </dl>
      <p className="muted">{t('fileImport.blocks.addressNote')}</p>
      <h3 className="section-title">
        {filter.trim() === ''
          ? t('fileImport.blocks.title', { count: blocks.length })
          : t('fileImport.blocks.titleFiltered', { count: blocks.length, total: inSegment.length, text: filter.trim() })}
      </h3>
      <SegmentBar blocks={blocks} addr={object.addr} size={object.size} seq={seq} chosen={chosen} onChoose={setChosen} />
      {blocks.length === 0 ? (
        <p className="muted">{t('fileImport.blocks.none')}</p>
      ) : (
        <ol>
          {listed(blocks, chosen).map((block) => {
            const blockState = blockStateAt(block, seq) ?? 'active_allocated';
            const key = blockKey(block);
            return (
              <li
                key={key}
                data-testid="segment-block"
                data-state={blockState}
                data-chosen={key === chosen}
                className={key === chosen ? 'chosen' : undefined}
                ref={key === chosen ? (element) => element?.scrollIntoView({ block: 'nearest' }) : undefined}
              >
                <span className="mono" title={t('fileImport.blocks.recorded')} data-testid="block-recorded">
                  {hex(block.recordedAddress)}
                </span>
                {block.addr !== undefined && (
                  <span className="mono muted" title={t('fileImport.blocks.model')}>
                    {' '}
                    → 0x{block.addr.toString(16)}
                  </span>
                )}{' '}
                {bytes(block.size, format)} · {t(`fileImport.blocks.state.${blockState}`)}
                {block.requestedSize !== undefined && (
                  <> · {t('fileImport.blocks.requested', { bytes: bytes(block.requestedSize, format) })}</>
                )}
                {' · '}
                {t('fileImport.blocks.stream', { stream: hex(block.stream) })}
                <Stack block={block} open={key === chosen} />
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
