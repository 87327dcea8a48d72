import { ACL_HOST_REG, type AclFunctionName, aclrtMallocAttrType, type WireArgs } from '@pagelens/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readSize } from '../../model/actions/size-field.ts';
import { bytes } from '../../model/format.ts';
import type { CallOutcome } from '../../store/actions-slice.ts';
import { useFormat } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { Field } from './Field.tsx';
import { OutcomeView } from './OutcomeView.tsx';
import { useLiveObjects } from './PointerPicker.tsx';
import { ResetHost } from './ResetHost.tsx';
import { SizeInput } from './SizeInput.tsx';
import { UnavailableNote } from './UnavailableNote.tsx';
import { type Caller, revealResult } from './useCaller.ts';

const PINNED_MAPPED = (ACL_HOST_REG.byName.ACL_HOST_REG_PINNED | ACL_HOST_REG.byName.ACL_HOST_REG_MAPPED) >>> 0;
const VA_FLAG = aclrtMallocAttrType.byName.ACL_RT_MEM_ATTR_VA_FLAG;

/** Quick host-memory calls: pageable, pinned and VA_FLAG buffers; register, unregister, free (HM-1 … HM-6). */
export function HostHelpers({ caller }: { caller: Caller }) {
  const { t } = useTranslation();
  const format = useFormat();
  const device = useAppStore((state) => state.device);
  const buffers = useLiveObjects(['host']);
  const [sizeText, setSizeText] = useState('1 MiB');
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const [outcome, setOutcome] = useState<CallOutcome | undefined>(undefined);
  const resultRef = useRef<HTMLDivElement>(null);
  const size = readSize(sizeText, { min: 1 });
  const buffer = buffers.find((item) => item.id === chosen) ?? buffers[0];

  const run = async <F extends AclFunctionName>(fn: F, args: WireArgs<F>, needsDevice: boolean) => {
    const failedSet = needsDevice ? await caller.ensureDevice(device) : undefined;
    const result = failedSet ?? (await caller.run(fn, args));
    setOutcome(result);
    revealResult(resultRef.current);
    if (result.ok) caller.selectCreated(result);
    return result;
  };
  const make = (fn: 'malloc' | 'aclrtMallocHost' | 'aclrtMallocHostWithCfg') => {
    if (!size.ok) return;
    const made =
      fn === 'aclrtMallocHostWithCfg'
        ? run(fn, { size: size.bytes, cfg: { attrs: [{ attr: VA_FLAG, value: { vaFlag: 1 } }], numAttrs: 1 } }, true)
        : run(fn, { size: size.bytes }, fn !== 'malloc');
    void made.then((result) => {
      const ptr = result.out?.ptr ?? result.out?.hostPtr;
      const made = typeof ptr === 'string' ? buffers.find((item) => item.value === ptr) : undefined;
      if (made !== undefined) setChosen(made.id);
    });
  };
  const registered = buffer?.registered === true;
  const pageable = buffer?.tag === 'malloc';
  const disabled = caller.busy || !caller.canCall;
  const freeFn = pageable ? 'free' : 'aclrtFreeHost';
  // One note for the first helper the agent would refuse (a read-only agent refuses them all, S-9).
  const blocker = caller.blocker([
    'malloc',
    'aclrtMallocHost',
    'aclrtMallocHostWithCfg',
    'aclrtHostRegisterV2',
    'aclrtHostUnregister',
    freeFn,
  ]);

  return (
    <fieldset className="act-frame act-form" disabled={!caller.canCall} data-testid="host-helpers">
      <p className="act-label">{t('actions.host.make')}</p>
      <SizeInput
        id="act-host-size"
        label={t('actions.host.size')}
        value={sizeText}
        onChange={setSizeText}
        rules={{ min: 1 }}
        testId="host-size"
      />
      <UnavailableNote fn={blocker?.fn ?? ''} why={blocker?.why} testId="host-unavailable" />
      <div className="act-buttons">
        {(
          [
            ['malloc', 'actions.host.malloc', 'actions.host.mallocHelp'],
            ['aclrtMallocHost', 'actions.host.mallocHost', 'actions.host.mallocHostHelp'],
            ['aclrtMallocHostWithCfg', 'actions.host.withCfg', 'actions.host.withCfgHelp'],
          ] as const
        ).map(([fn, label, help]) => (
          <button
            key={fn}
            type="button"
            disabled={disabled || !size.ok || caller.why(fn) !== undefined}
            onClick={() => make(fn)}
            title={t(help)}
            data-testid={`host-${fn}`}
          >
            <code>{t(label)}</code>
            <span className="act-button-help">{t(help)}</span>
          </button>
        ))}
      </div>
      {buffer === undefined ? (
        <p className="act-note">{t('actions.host.none')}</p>
      ) : (
        <>
          <Field id="act-host-buffer" label={t('actions.host.buffer')}>
            <select
              id="act-host-buffer"
              value={buffer.id}
              onChange={(event) => setChosen(Number(event.target.value))}
              data-testid="host-buffer"
            >
              {buffers.map((item) => (
                <option key={item.id} value={item.id}>
                  {t(`actions.copy.${item.memory ?? 'pageable'}`)} · {bytes(item.size ?? 0, format)} · {item.tag}
                  {item.registered === true ? ` · ${t('actions.host.registered')}` : ''}
                </option>
              ))}
            </select>
            <span className="act-chosen mono">{buffer.value}</span>
          </Field>
          <div className="act-buttons-row">
            <button
              type="button"
              disabled={disabled || registered || caller.why('aclrtHostRegisterV2') !== undefined}
              title={t('actions.host.registerHelp')}
              onClick={() => void run('aclrtHostRegisterV2', { ptr: buffer.value, size: buffer.size ?? 0, flag: PINNED_MAPPED }, true)}
              data-testid="host-register"
            >
              {t('actions.host.register')}
            </button>
            <button
              type="button"
              disabled={disabled || caller.why('aclrtHostUnregister') !== undefined}
              onClick={() => void run('aclrtHostUnregister', { ptr: buffer.value }, false)}
              data-testid="host-unregister"
            >
              {t('actions.host.unregister')}
            </button>
            <button
              type="button"
              disabled={disabled || caller.why(freeFn) !== undefined}
              onClick={() =>
                void (pageable ? run('free', { ptr: buffer.value }, false) : run('aclrtFreeHost', { hostPtr: buffer.value }, false))
              }
              data-testid="host-free"
            >
              {t('actions.host.free')} (<code>{freeFn}</code>)
            </button>
          </div>
        </>
      )}
      <div aria-live="polite" data-testid="host-result" ref={resultRef}>
        {outcome !== undefined && <OutcomeView outcome={outcome} />}
      </div>
      <ResetHost />
    </fieldset>
  );
}
