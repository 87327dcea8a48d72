import { type MallocFn, reportAllocation } from '@pagelens/core';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { framesObservable } from '../../model/acl/backend.ts';
import { previewMalloc } from '../../model/actions/malloc-preview.ts';
import { createdObjects } from '../../model/actions/outcome.ts';
import { composePolicy, isMallocFn, MALLOC_FNS } from '../../model/actions/policies.ts';
import { readSize } from '../../model/actions/size-field.ts';
import { bytes, exactBytes } from '../../model/format.ts';
import type { CallOutcome } from '../../store/actions-slice.ts';
import { useFormat } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { NameOptions } from '../common/NameOptions.tsx';
import { CountInput } from './CountInput.tsx';
import { Field } from './Field.tsx';
import { MallocPreviewView } from './MallocPreviewView.tsx';
import { OutcomeView } from './OutcomeView.tsx';
import { PolicyPicker } from './PolicyPicker.tsx';
import { SizeInput } from './SizeInput.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { UnavailableNote } from './UnavailableNote.tsx';
import { type Caller, revealResult, useCurrentDevice, useLiveState } from './useCaller.ts';

/** Calls in flight at once when allocating many: the agent runs them in order anyway. */
const BATCH = 25;
const MAX_COUNT = 10_000;

interface Result {
  readonly count: number;
  readonly ok: number;
  readonly last?: CallOutcome;
  readonly failure?: CallOutcome;
}

/** Size, function, policy and count; a live preview of the pages; Enter allocates and selects the new allocation. */
export function QuickAllocate({ caller }: { caller: Caller }) {
  const { t } = useTranslation();
  const format = useFormat();
  const store = useStoreApi();
  const device = useAppStore((state) => state.device);
  const live = useLiveState();
  const currentDevice = useCurrentDevice();
  const framesKnown = useAppStore((state) => framesObservable(state.session?.host));
  const [fn, setFn] = useState<MallocFn>('aclrtMalloc');
  const [sizeText, setSizeText] = useState('1 MiB');
  const [base, setBase] = useState(0);
  const [hints, setHints] = useState<readonly number[]>([]);
  const [countText, setCountText] = useState('1');
  const [result, setResult] = useState<Result | undefined>(undefined);
  const resultRef = useRef<HTMLDivElement>(null);

  const deviceState = live?.devices[device];
  const size = readSize(sizeText);
  const count = Math.min(MAX_COUNT, Math.max(1, Math.floor(Number(countText)) || 1));
  const policy = composePolicy(fn, base, hints);
  const preview = size.ok && deviceState !== undefined ? previewMalloc(fn, size.bytes, policy, deviceState, count, framesKnown) : undefined;
  // A read-only agent or a library without the symbol would refuse: say so before the call, not after.
  const blocker = caller.blocker(currentDevice === device ? [fn] : [fn, 'aclrtSetDevice']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!size.ok || !caller.canCall || caller.busy || blocker !== undefined) return;
    const failedSet = await caller.ensureDevice(device);
    if (failedSet !== undefined) {
      setResult({ count, ok: 0, failure: failedSet });
      revealResult(resultRef.current);
      return;
    }
    let ok = 0;
    let last: CallOutcome | undefined;
    let failure: CallOutcome | undefined;
    for (let start = 0; start < count && failure === undefined; start += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, count - start) }, () =>
        fn === 'aclrtMallocWithCfg'
          ? caller.run(fn, { size: size.bytes, policy, cfg: null })
          : caller.run(fn, { size: size.bytes, policy }),
      );
      for (const outcome of await Promise.all(batch)) {
        if (outcome.ok) {
          ok += 1;
          last = outcome;
        } else failure ??= outcome;
      }
    }
    if (last !== undefined) caller.selectCreated(last);
    setResult({ count, ok, ...(last === undefined ? {} : { last }), ...(failure === undefined ? {} : { failure }) });
    revealResult(resultRef.current);
  };

  const lastAllocation = (() => {
    const timeline = store.getState().timeline;
    if (result?.last === undefined || timeline === undefined || live === undefined) return undefined;
    const created = createdObjects(result.last, timeline).find((ref) => ref.kind === 'allocation');
    return created === undefined ? undefined : live.allocations.get(created.id);
  })();
  const report =
    lastAllocation === undefined || deviceState === undefined ? undefined : reportAllocation(lastAllocation, deviceState.profile);

  return (
    <form onSubmit={(event) => void submit(event)} data-testid="quick-allocate">
      <fieldset className="act-frame act-form" disabled={!caller.canCall}>
        <div className="act-row">
          <Field id="act-malloc-fn" label={t('actions.allocate.function')}>
            <select
              id="act-malloc-fn"
              value={fn}
              onChange={(event) => isMallocFn(event.target.value) && setFn(event.target.value)}
              data-testid="malloc-fn"
            >
              <NameOptions names={MALLOC_FNS} />
            </select>
          </Field>
          <Field id="act-malloc-count" label={t('actions.allocate.count')}>
            <CountInput
              id="act-malloc-count"
              max={MAX_COUNT}
              value={countText}
              onText={setCountText}
              title={t('actions.allocate.countHelp')}
              data-testid="malloc-count"
            />
          </Field>
        </div>
        <SizeInput id="act-malloc-size" label={t('actions.allocate.size')} value={sizeText} onChange={setSizeText} testId="malloc-size" />
        <PolicyPicker
          id="act-malloc-policy"
          fn={fn}
          profile={deviceState?.profile}
          base={base}
          hints={hints}
          onBase={setBase}
          onHints={setHints}
        />
        {currentDevice !== device && blocker === undefined && (
          <p className="act-note">{t('actions.allocate.setDeviceFirst', { device })}</p>
        )}
        {preview !== undefined && <MallocPreviewView preview={preview} />}
        <UnavailableNote fn={blocker?.fn ?? fn} why={blocker?.why} testId="malloc-unavailable" />
        <div className="act-submit">
          <SubmitButton busy={caller.busy} disabled={!size.ok || blocker !== undefined} testId="malloc-submit">
            {count > 1 ? t('actions.allocate.submitMany', { count }) : t('actions.allocate.submit')}
          </SubmitButton>
          <span className="act-note">{t('actions.allocate.enterHint')}</span>
        </div>
        <div data-testid="malloc-result" aria-live="polite" ref={resultRef}>
          {result !== undefined && result.count > 1 && (
            <p className="act-label">
              {t('actions.allocate.many', { ok: result.ok, count: result.count })}
              {result.failure !== undefined && ` · ${t('actions.allocate.stopped')}`}
            </p>
          )}
          {result?.failure !== undefined && <OutcomeView outcome={result.failure} />}
          {result?.last !== undefined && result.failure === undefined && <OutcomeView outcome={result.last} />}
          {report !== undefined && (
            <p className="act-note" data-testid="malloc-selected">
              {t('actions.result.selected', {
                pages: report.pages,
                pageSize: bytes(report.pageSize, format),
                pageClass: t(`actions.pageClass.${report.pageClass}`),
                occupied: bytes(report.occupied, format),
                waste: exactBytes(report.waste),
              })}
            </p>
          )}
        </div>
      </fieldset>
    </form>
  );
}
