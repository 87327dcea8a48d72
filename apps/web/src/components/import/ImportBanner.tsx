import { useTranslation } from 'react-i18next';
import type { ImportedFacts } from '../../model/import/import-protocol.ts';
import { KEEP_TRACE_ENTRIES } from '../../model/import/import-snapshot.ts';
import { selectImporting, selectImportProblem } from '../../store/import-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/** For an msMemScope dump, whether its HAL rows said their page size (page_type): all, some or none. */
function bannerKey(facts: ImportedFacts) {
  if (facts.format === 'pytorch_cuda') return 'fileImport.bannerWhatIf';
  if (facts.format !== 'msmemscope') return 'fileImport.bannerModeled';
  const recorded = facts.halPages?.recorded ?? 0;
  if (recorded === 0) return 'fileImport.bannerMemScope';
  return (facts.halPages?.modeled ?? 0) === 0 ? 'fileImport.bannerMemScopeRecorded' : 'fileImport.bannerMemScopeSomeRecorded';
}

/**
 * Where an import stands, as the banner's data-import-phase says it: the segments-first view while
 * the worker reads on, a trace summarised (done, final state only), a trace that could not be read
 * or was cancelled (the segments stay), or the whole file as a recorded session.
 */
export type ImportPhase = 'reading' | 'summarised' | 'trace-failed' | 'cancelled' | 'complete';

function importPhase(facts: ImportedFacts, reading: boolean, failed: boolean): ImportPhase {
  if (facts.segmentsOnly !== true) return 'complete';
  if (facts.traceSummary !== undefined) return 'summarised';
  if (reading) return 'reading';
  return failed ? 'trace-failed' : 'cancelled';
}

const SEGMENTS_ONLY_KEY = {
  reading: 'fileImport.segmentsOnlyReading',
  'trace-failed': 'fileImport.segmentsOnlyFailed',
  cancelled: 'fileImport.segmentsOnlyCancelled',
} as const;

/**
 * Above the views of an imported file: which file, which writer, read-only, and that the pages are
 * modeled. In the segments-first view it says that only the final state is shown, and whether the
 * trace is still being read, was summarised, could not be read (a damaged file), or was cancelled.
 */
export function ImportBanner({ facts }: { facts: ImportedFacts }) {
  const { t } = useTranslation();
  const reading = useAppStore(selectImporting) !== undefined;
  // The trace broke after the segments were shown: they stay (they read whole), the error says where.
  const failed = useAppStore(selectImportProblem)?.name === facts.name;
  const phase = importPhase(facts, reading, failed);
  const segmentsOnlyText = (stopped: Exclude<ImportPhase, 'complete'>): string =>
    stopped === 'summarised'
      ? t('fileImport.segmentsOnlySummarised', {
          entries: (facts.traceSummary?.entries ?? 0).toLocaleString('en-US'),
          limit: KEEP_TRACE_ENTRIES.toLocaleString('en-US'),
        })
      : t(SEGMENTS_ONLY_KEY[stopped]);
  return (
    <p
      className="provenance-banner provenance-modeled import-banner"
      data-testid="import-banner"
      data-format={facts.format}
      data-import-phase={phase}
    >
      {t('fileImport.banner', { name: facts.name, format: t(`fileImport.format.${facts.format}`) })}
      {' · '}
      <strong data-testid="import-banner-modeled">
        {t(bannerKey(facts), {
          profile: facts.pageSize1g ? `${facts.profile}, page_size:1g` : facts.profile,
          recorded: facts.halPages?.recorded ?? 0,
          total: (facts.halPages?.recorded ?? 0) + (facts.halPages?.modeled ?? 0),
        })}
      </strong>
      {phase !== 'complete' && (
        <>
          {' · '}
          <em data-testid="import-segments-only">{segmentsOnlyText(phase)}</em>
        </>
      )}
    </p>
  );
}
