import { aclrtMemcpyKind, type Hex, isHex, shortName, toHex } from '@pagelens/core';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { liveObjects } from '../../model/actions/live-objects.ts';
import { COPY_KINDS, type CopyBuffer, copyBuffers, copyNotes, defaultCount, memcpyCall, suggestKind } from '../../model/actions/memcpy.ts';
import { readSize } from '../../model/actions/size-field.ts';
import { bytes } from '../../model/format.ts';
import type { CallOutcome } from '../../store/actions-slice.ts';
import { useFormat } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { Field } from './Field.tsx';
import { OutcomeView } from './OutcomeView.tsx';
import { SizeInput } from './SizeInput.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { useTabActive } from './tab-active.ts';
import { UnavailableNote } from './UnavailableNote.tsx';
import { type Caller, pidOf, revealResult } from './useCaller.ts';

function useBuffers() {
  const active = useTabActive();
  const version = useAppStore((state) => (active ? state.version : -1));
  const store = useStoreApi();
  return useMemo(() => {
    const state = store.getState();
    const live = state.timeline?.live;
    if (live === undefined || version < 0) return { buffers: [], streams: [] };
    const pid = pidOf(state);
    return { buffers: copyBuffers(live, pid), streams: liveObjects(live, ['stream'], pid) };
  }, [version, store]);
}

/** Copies between chosen live buffers: sync, or async on a stream then synchronize (CP-1 … CP-4, HM-1 … HM-3). */
export function MemcpyForm({ caller }: { caller: Caller }) {
  const { t } = useTranslation();
  const format = useFormat();
  const device = useAppStore((state) => state.device);
  const { buffers, streams } = useBuffers();
  const [dstKey, setDstKey] = useState<string | undefined>(undefined);
  const [srcKey, setSrcKey] = useState<string | undefined>(undefined);
  const [countText, setCountText] = useState<string | undefined>(undefined);
  const [kindOverride, setKindOverride] = useState<number | undefined>(undefined);
  const [mode, setMode] = useState<'sync' | 'async'>('sync');
  const [stream, setStream] = useState<Hex>('0x0');
  const [thenSync, setThenSync] = useState(true);
  const [outcomes, setOutcomes] = useState<readonly CallOutcome[]>([]);
  const resultRef = useRef<HTMLDivElement>(null);

  // Defaults: a device buffer as destination and a host buffer as source (the H2D lesson), else any two.
  const dst = buffers.find((b) => b.key === dstKey) ?? buffers.find((b) => b.side === 'device') ?? buffers[0];
  const src =
    buffers.find((b) => b.key === srcKey) ??
    buffers.find((b) => b.side === 'host' && b.key !== dst?.key) ??
    buffers.find((b) => b.key !== dst?.key);
  // A read-only agent refuses copies (S-9); an old library may lack aclrtMemcpyAsync.
  const blocker = caller.blocker(mode === 'async' ? ['aclrtMemcpyAsync'] : ['aclrtMemcpy']);
  const note = <UnavailableNote fn={blocker?.fn ?? ''} why={blocker?.why} testId="memcpy-unavailable" />;
  if (dst === undefined || src === undefined)
    return (
      <>
        {note}
        <p className="act-note" data-testid="memcpy-empty">
          {t('actions.copy.empty')}
        </p>
      </>
    );

  const suggested = suggestKind(dst, src);
  const kind = kindOverride ?? suggested;
  const count = readSize(countText ?? String(defaultCount(dst, src)));
  const notes = count.ok ? copyNotes({ dst, src, count: count.bytes }) : [];
  const label = (buffer: CopyBuffer): string => {
    const what =
      buffer.side === 'host'
        ? t(buffer.pinned === true ? 'actions.copy.pinned' : 'actions.copy.pageable')
        : `${t('actions.copy.device')} ${buffer.device ?? ''}`;
    // Short enough for the 300 px column; the address goes on the line under the select.
    return `${what} · ${bytes(buffer.size, format)} · ${buffer.fn}`;
  };
  const pick = (setter: (key: string) => void) => (key: string) => {
    setter(key);
    setCountText(undefined);
    setKindOverride(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!count.ok || !caller.canCall || blocker !== undefined) return;
    const made: CallOutcome[] = [];
    const failedSet = await caller.ensureDevice(dst.device ?? src.device ?? device);
    if (failedSet !== undefined) made.push(failedSet);
    else {
      const call = memcpyCall({ dst, src, count: count.bytes, kind, ...(mode === 'async' ? { stream } : {}) });
      const copied = await caller.runBuilt(call);
      made.push(copied);
      if (copied.ok && mode === 'async' && thenSync) made.push(await caller.run('aclrtSynchronizeStream', { stream }));
    }
    setOutcomes(made);
    revealResult(resultRef.current);
  };
  const createStream = async () => {
    const failedSet = await caller.ensureDevice(device);
    const created = failedSet ?? (await caller.run('aclrtCreateStream', {}));
    setOutcomes([created]);
    const handle = created.out?.stream;
    if (created.ok && typeof handle === 'string' && isHex(handle)) setStream(handle);
  };

  return (
    <form onSubmit={(event) => void submit(event)} data-testid="memcpy">
      <fieldset className="act-frame act-form" disabled={!caller.canCall}>
        {(
          [
            ['dst', dst, setDstKey],
            ['src', src, setSrcKey],
          ] as const
        ).map(([role, chosen, setter]) => (
          <Field key={role} id={`act-copy-${role}`} label={t(`actions.copy.${role}`)}>
            <select
              id={`act-copy-${role}`}
              value={chosen.key}
              onChange={(event) => pick(setter)(event.target.value)}
              data-testid={`memcpy-${role}`}
            >
              {buffers.map((buffer) => (
                <option key={buffer.key} value={buffer.key}>
                  {label(buffer)}
                </option>
              ))}
            </select>
            <span className="act-chosen mono" data-testid={`memcpy-${role}-address`}>
              {toHex(chosen.addr)}
            </span>
          </Field>
        ))}
        <SizeInput
          id="act-copy-count"
          label={t('actions.copy.count')}
          value={countText ?? String(defaultCount(dst, src))}
          onChange={setCountText}
          testId="memcpy-count"
        />
        <Field id="act-copy-kind" label={t('actions.copy.kind')}>
          <select
            id="act-copy-kind"
            value={kind}
            onChange={(event) => setKindOverride(Number(event.target.value))}
            data-testid="memcpy-kind"
          >
            {COPY_KINDS.map((name) => (
              <option key={name} value={aclrtMemcpyKind.valueOf(name)}>
                {shortName(aclrtMemcpyKind, name)}
                {aclrtMemcpyKind.valueOf(name) === suggested ? ' ✓' : ''}
              </option>
            ))}
          </select>
          <span className="act-chosen" data-testid="memcpy-kind-hint">
            {kind === suggested ? t('actions.copy.suggested') : t('actions.copy.suggests', { kind: shortName(aclrtMemcpyKind, suggested) })}
          </span>
        </Field>
        <fieldset className="act-sub">
          <legend>{t('actions.copy.mode')}</legend>
          <label className="act-check">
            <input type="radio" name="act-copy-mode" checked={mode === 'sync'} onChange={() => setMode('sync')} />
            {t('actions.copy.sync')}
          </label>
          <label className="act-check">
            <input
              type="radio"
              name="act-copy-mode"
              checked={mode === 'async'}
              onChange={() => setMode('async')}
              data-testid="memcpy-async"
            />
            {t('actions.copy.async')}
          </label>
          {mode === 'async' && (
            <>
              <Field id="act-copy-stream" label={t('actions.copy.stream')}>
                <select
                  id="act-copy-stream"
                  value={stream}
                  onChange={(event) => isHex(event.target.value) && setStream(event.target.value)}
                  data-testid="memcpy-stream"
                >
                  <option value="0x0">{t('actions.pick.defaultStream')}</option>
                  {streams.map((item) => (
                    <option key={item.id} value={item.value}>
                      {item.value} · {t('actions.copy.device')} {item.device}
                    </option>
                  ))}
                </select>
              </Field>
              {streams.length === 0 && <p className="act-note">{t('actions.copy.noStream')}</p>}
              <button type="button" className="act-small-button" onClick={() => void createStream()} disabled={caller.busy}>
                {t('actions.copy.createStream')}
              </button>
              <label className="act-check">
                <input type="checkbox" checked={thenSync} onChange={(event) => setThenSync(event.target.checked)} />
                <code>{t('actions.copy.thenSync')}</code>
              </label>
            </>
          )}
        </fieldset>
        {notes.map((note) => (
          <p key={note} className="act-note act-warn">
            {t(`actions.copy.notes.${note}`)}
          </p>
        ))}
        {note}
        <div className="act-submit">
          <SubmitButton busy={caller.busy} disabled={!count.ok || blocker !== undefined} testId="memcpy-submit">
            {t('actions.copy.submit')}
          </SubmitButton>
          {mode === 'async' && (
            <button
              type="button"
              disabled={caller.busy}
              onClick={() => void caller.run('aclrtSynchronizeStream', { stream }).then((done) => setOutcomes([done]))}
            >
              {t('actions.copy.synchronize')}
            </button>
          )}
        </div>
      </fieldset>
      <div aria-live="polite" data-testid="memcpy-result" ref={resultRef}>
        {outcomes.map((outcome) => (
          <OutcomeView key={outcome.id} outcome={outcome} />
        ))}
      </div>
    </form>
  );
}
