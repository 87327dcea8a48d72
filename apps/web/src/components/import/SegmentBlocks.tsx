import { BAD_STACK, blockStateAt, type ImportedBlock, NO_STACK, stackFrames } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import type { Target } from '../../model/log/effects.ts';
import { useCursorSeq, useCursorState, useFormat } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';

const hex = (value: bigint): string => (value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`);

function Stack({ block }: { block: ImportedBlock }) {
  const { t } = useTranslation();
  const stacks = useAppStore((state) => state.importedStacks);
  const id = stacks?.stackOf(block) ?? NO_STACK;
  if (id === BAD_STACK) return <span className="muted">{t('fileImport.blocks.badStack')}</span>;
  const frames = stacks === undefined ? [] : stackFrames(stacks.table, id);
  if (frames.length === 0) return <span className="muted">{t('fileImport.blocks.noStack')}</span>;
  return (
    <details>
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

/** In the inspector of an imported file: the caching allocator's blocks inside the selected segment at the cursor. */
export function SegmentBlocks({ target }: { target: Target }) {
  const { t } = useTranslation();
  const index = useAppStore((state) => state.importedBlocks);
  const state = useCursorState();
  const seq = useCursorSeq();
  const format = useFormat();
  if (index === undefined || state === undefined) return null;
  const object =
    target.kind === 'allocation' ? state.allocations.get(target.id) : target.kind === 'mapping' ? state.mappings.get(target.id) : undefined;
  if (object === undefined) return null;
  const blocks = index.within(object.device, object.addr, object.size, seq);
  return (
    <section className="inspector-section segment-blocks" data-testid="segment-blocks">
      <h3 className="section-title">{t('fileImport.blocks.title', { count: blocks.length })}</h3>
      {blocks.length === 0 ? (
        <p className="muted">{t('fileImport.blocks.none')}</p>
      ) : (
        <ol>
          {blocks.slice(0, 200).map((block) => {
            const blockState = blockStateAt(block, seq) ?? 'active_allocated';
            return (
              <li key={`${block.recordedAddress}-${block.allocSeq}`} data-testid="segment-block" data-state={blockState}>
                <span className="mono" title={t('fileImport.blocks.recorded')}>
                  {hex(block.recordedAddress)}
                </span>{' '}
                {bytes(block.size, format)} · {t(`fileImport.blocks.state.${blockState}`)}
                {block.requestedSize !== undefined && (
                  <> · {t('fileImport.blocks.requested', { bytes: bytes(block.requestedSize, format) })}</>
                )}
                {' · '}
                {t('fileImport.blocks.stream', { stream: hex(block.stream) })}
                <Stack block={block} />
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
