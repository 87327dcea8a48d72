import type { CopyRecord } from '@pagelens/core';

export type CopyPath = CopyRecord['path'];

/** Colours of the copy timeline for one theme. */
export interface CopyColors {
  readonly paths: Readonly<Record<CopyPath, string>>;
  /** Stripes drawn over pageable (staged) bars, HM-1. */
  readonly stagingHatch: string;
  /** The host thread waiting (synchronize, blocking copy). */
  readonly blocked: string;
  readonly blockedHatch: string;
  /** The queued wait between submit and start. */
  readonly queued: string;
  readonly laneAlt: string;
  /** The panel behind the canvas: gaps between staging chunks are cut in it. */
  readonly background: string;
  readonly laneEdge: string;
  readonly textOnBar: string;
  readonly text: string;
  readonly selection: string;
  readonly hover: string;
  /** aclrtRecordEvent marks (EV-2). */
  readonly record: string;
  /** aclrtStreamWaitEvent marks and their arrows (EV-3). */
  readonly wait: string;
}

export const COPY_COLORS_LIGHT: CopyColors = {
  paths: {
    pinned: '#2563eb',
    'pageable-staged': '#ea580c',
    device: '#059669',
    peer: '#7c3aed',
    host: '#64748b',
  },
  stagingHatch: 'rgba(255, 255, 255, 0.45)',
  blocked: 'rgba(100, 116, 139, 0.22)',
  blockedHatch: 'rgba(71, 85, 105, 0.45)',
  queued: '#64748b',
  laneAlt: 'rgba(15, 23, 42, 0.035)',
  background: '#ffffff',
  laneEdge: '#d9dee7',
  textOnBar: '#ffffff',
  text: '#1b2230',
  selection: '#f59e0b',
  hover: '#1b2230',
  record: '#db2777',
  wait: '#0e7490',
};

export const COPY_COLORS_DARK: CopyColors = {
  paths: {
    pinned: '#60a5fa',
    'pageable-staged': '#fb923c',
    device: '#34d399',
    peer: '#a78bfa',
    host: '#94a3b8',
  },
  stagingHatch: 'rgba(67, 20, 7, 0.45)',
  blocked: 'rgba(148, 163, 184, 0.16)',
  blockedHatch: 'rgba(203, 213, 225, 0.35)',
  queued: '#97a3b6',
  laneAlt: 'rgba(255, 255, 255, 0.03)',
  background: '#161d28',
  laneEdge: '#2a3443',
  textOnBar: '#0f141c',
  text: '#e3e8f0',
  selection: '#fbbf24',
  hover: '#e3e8f0',
  record: '#f472b6',
  wait: '#22d3ee',
};

export function copyColors(theme: 'light' | 'dark'): CopyColors {
  return theme === 'dark' ? COPY_COLORS_DARK : COPY_COLORS_LIGHT;
}

/** Bar fill of a copy: the path decides (pinned DMA and pageable staging must never look alike). */
export function barColor(colors: CopyColors, path: CopyPath): string {
  return colors.paths[path];
}

/** The legend entries, in the order the legend lists them. */
export const LEGEND_PATHS: readonly CopyPath[] = ['pinned', 'pageable-staged', 'device', 'peer', 'host'];
