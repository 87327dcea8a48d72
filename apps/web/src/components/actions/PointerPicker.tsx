import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickKind } from '../../model/actions/form-spec.ts';
import { readPointer } from '../../model/actions/form-values.ts';
import { type LiveKey, type LiveObject, liveKeys, liveObjects } from '../../model/actions/live-objects.ts';
import { bytes } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { useTabActive } from './tab-active.ts';
import { pidOf } from './useCaller.ts';

const TYPED = '__typed';

/** Live objects of the process at the live state, newest first; recomputed when the replica changes. */
export function useLiveObjects(picks: readonly PickKind[]): LiveObject[] {
  const active = useTabActive();
  const version = useAppStore((state) => (active ? state.version : -1));
  const store = useStoreApi();
  const key = picks.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` stands for the mutable live state; `key` for `picks`.
  return useMemo(() => {
    const state = store.getState();
    const live = state.timeline?.live;
    return live === undefined || version < 0 ? [] : liveObjects(live, picks, pidOf(state));
  }, [version, key, store]);
}

/** The live IPC keys `fn`'s key parameter may name (IP-2 … IP-4), at the live state. */
export function useLiveKeys(fn: string, wanted: boolean): LiveKey[] {
  const active = useTabActive();
  const version = useAppStore((state) => (active && wanted ? state.version : -1));
  const store = useStoreApi();
  // `version` stands for the mutable live state (and is read, so the hook's dependencies hold).
  return useMemo(() => {
    const state = store.getState();
    const live = state.timeline?.live;
    return live === undefined || version < 0 ? [] : liveKeys(live, fn, pidOf(state));
  }, [version, fn, store]);
}

interface PointerPickerProps {
  readonly id: string;
  readonly label: string;
  readonly ctype: string;
  readonly picks: readonly PickKind[];
  readonly value: string;
  readonly onChange: (value: string, object?: LiveObject) => void;
  readonly testId?: string;
}

/** A pointer or handle: one of the live objects of the right kind, NULL, or a typed 0x address. */
export function PointerPicker({ id, label, ctype, picks, value, onChange, testId }: PointerPickerProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const objects = useLiveObjects(picks);
  const [typing, setTyping] = useState(false);
  const matched = objects.find((object) => object.value === value);
  const isNull = value === '0x0';
  const choice = typing || (!isNull && matched === undefined) ? TYPED : isNull ? '0x0' : value;
  const valid = readPointer(value) !== undefined;
  const kinds = picks.map((pick) => t(`actions.pick.kinds.${pick}`)).join(t('actions.pick.listSeparator'));
  return (
    <div className="act-field">
      <label htmlFor={id}>
        {label} <span className="muted mono act-ctype">{ctype}</span>
      </label>
      <select
        id={id}
        value={choice}
        data-testid={testId}
        onChange={(event) => {
          const next = event.target.value;
          setTyping(next === TYPED);
          if (next === TYPED) return;
          onChange(
            next,
            objects.find((object) => object.value === next),
          );
        }}
      >
        <option value="0x0">{picks.includes('stream') ? t('actions.pick.defaultStream') : t('actions.pick.null')}</option>
        {objects.map((object) => (
          <option key={`${object.pick}:${object.id}`} value={object.value}>
            {object.value}
            {object.size === undefined ? '' : ` · ${bytes(object.size, format)}`} · {object.tag}
            {object.memory === undefined ? '' : ` · ${t(`actions.copy.${object.memory}`)}`}
            {object.registered === true ? ` · ${t('actions.host.registered')}` : ''}
          </option>
        ))}
        <option value={TYPED}>{t('actions.pick.typed')}</option>
      </select>
      {choice === TYPED && (
        <input
          className="mono"
          aria-label={t('actions.pick.typedLabel', { name: label })}
          aria-invalid={!valid}
          value={value}
          placeholder="0x…"
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {choice === TYPED && !valid && <p className="act-note act-invalid">{t('actions.call.problem.pointer')}</p>}
      {objects.length === 0 && picks.length > 0 && <p className="act-note">{t('actions.pick.none', { kinds })}</p>}
    </div>
  );
}
