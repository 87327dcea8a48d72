import type { ImportedBlock } from '@pagelens/core';
import { type KeyboardEvent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import { barPieces } from './segment-bar-model.ts';

/** Pieces drawn at most: a small-pool segment can hold thousands of blocks, and each is a button. */
const MAX_PIECES = 1000;

const hex = (value: bigint): string => `0x${value.toString(16)}`;

export interface SegmentBarProps {
  readonly blocks: readonly ImportedBlock[];
  /** The segment (allocation or mapping) in the model: where it starts and how long it is. */
  readonly addr: number;
  readonly size: number;
  readonly seq: number;
  readonly chosen: string | undefined;
  readonly onChoose: (key: string) => void;
}

/** ← → (and Home / End) move between the pieces, as in a toolbar; Tab leaves the bar. */
function moveFocus(event: KeyboardEvent<HTMLDivElement>): void {
  const keys: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
  const step = keys[event.key];
  if (step === undefined) return;
  const pieces = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button')];
  const at = pieces.indexOf(document.activeElement as HTMLButtonElement);
  const next = step === -Infinity ? 0 : step === Infinity ? pieces.length - 1 : Math.min(pieces.length - 1, Math.max(0, at + step));
  pieces[next]?.focus();
  event.preventDefault();
}

/**
 * The segment zoomed in: one bar the width of the segment, each live block a piece at its offset
 * coloured by state, its requested bytes solid and the allocator's rounding hatched; the gaps are
 * the segment's free space. Choosing a piece opens that block in the list below.
 */
export function SegmentBar({ blocks, addr, size, seq, chosen, onChoose }: SegmentBarProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const pieces = useMemo(() => barPieces(blocks, addr, size, seq), [blocks, addr, size, seq]);
  if (pieces.length === 0) return null;
  const shown = pieces.slice(0, MAX_PIECES);
  return (
    <figure className="segment-bar-figure">
      <div className="segment-bar" role="toolbar" aria-label={t('fileImport.blocks.bar')} onKeyDown={moveFocus} data-testid="segment-bar">
        {shown.map((piece, index) => {
          const requested = piece.block.requestedSize;
          const label = t('fileImport.blocks.barPiece', {
            address: hex(piece.block.recordedAddress),
            size: bytes(piece.block.size, format),
            state: t(`fileImport.blocks.state.${piece.state}`),
            requested: requested === undefined ? t('fileImport.blocks.notRecorded') : bytes(requested, format),
          });
          return (
            <button
              key={piece.key}
              type="button"
              className={`segment-piece state-${piece.state}`}
              style={{
                left: `${piece.start * 100}%`,
                width: `${piece.width * 100}%`,
                ['--requested' as string]: `${piece.requestedShare * 100}%`,
              }}
              title={label}
              aria-label={label}
              aria-pressed={chosen === piece.key}
              tabIndex={chosen === piece.key || (chosen === undefined && index === 0) ? 0 : -1}
              onClick={() => onChoose(piece.key)}
              data-testid="segment-piece"
              data-state={piece.state}
            />
          );
        })}
      </div>
      <figcaption className="muted">
        {t('fileImport.blocks.barLegend')}
        {pieces.length > shown.length && (
          <>
            {' '}
            · {t('fileImport.blocks.barCut', { shown: shown.length.toLocaleString('en-US'), count: pieces.length.toLocaleString('en-US') })}
          </>
        )}
      </figcaption>
    </figure>
  );
}
