import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { type AddressError, groupedHex, parseAddress } from '../../model/address-space/address-parse.ts';
import type { PhysicalPlace } from '../../model/address-space/physical-frame.ts';
import type { TableFigure, WalkPanelData } from '../../model/address-space/walk-model.ts';
import { address, bytes, type FormatPrefs } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import type { ObjectRef } from '../../store/selection-slice.ts';
import { TableCountFigure } from './TableCountFigure.tsx';
import { WalkBits } from './WalkBits.tsx';
import './walk.css';

export interface TranslationWalkProps {
  readonly data: WalkPanelData | undefined;
  readonly figure: TableFigure;
  readonly pid: number;
  readonly onAddress: (va: number) => void;
  readonly onSelect: (ref: ObjectRef) => void;
}

function shownAddress(va: number, addresses: FormatPrefs['addresses']): string {
  return addresses === 'hex' ? groupedHex(va) : String(va);
}

/** PT-2 (modeled): the walk of one address through ARMv8-style 4 KiB-granule tables, and the tables the process needs. */
export function TranslationWalk({ data, figure, pid, onAddress, onSelect }: TranslationWalkProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const [text, setText] = useState('');
  const [error, setError] = useState<AddressError | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  /** The address the user typed last: the field keeps their spelling of it. */
  const typed = useRef<number | undefined>(undefined);
  const va = data?.va;
  const addresses = format.addresses;

  // An address chosen on the strip or in the table shows in the field too.
  useEffect(() => {
    if (va === undefined || va === typed.current) return;
    typed.current = undefined;
    setText(shownAddress(va, addresses));
    setError(undefined);
  }, [va, addresses]);

  useShortcut({ key: 'g', label: 'addressSpace.keys.focusAddress', group: 'shell.help.groups.map' }, () => input.current?.focus());

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const parsed = parseAddress(text);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(undefined);
    typed.current = parsed.value;
    onAddress(parsed.value);
  };

  return (
    <section className="walk-panel" aria-labelledby="walk-title" data-testid="walk-panel">
      <div className="walk-main">
        <div className="walk-head">
          <h3 id="walk-title" className="section-title">
            {t('addressSpace.walk.title')}
          </h3>
          <span className="provenance provenance-modeled hatch" title={t('addressSpace.walk.modeledNote')} data-testid="walk-modeled">
            {t('common.provenance.modeled')}
          </span>
        </div>
        <form className="walk-form" onSubmit={submit} noValidate>
          <label htmlFor="walk-address">{t('addressSpace.walk.input')}</label>
          <input
            id="walk-address"
            ref={input}
            className="mono"
            value={text}
            placeholder={t('addressSpace.walk.placeholder')}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={error !== undefined}
            aria-describedby={error === undefined ? undefined : 'walk-error'}
            spellCheck={false}
            autoComplete="off"
            data-testid="walk-input"
          />
          <button type="submit">{t('addressSpace.walk.go')}</button>
        </form>
        {error !== undefined && (
          <p id="walk-error" className="walk-error" role="alert" data-testid="walk-error">
            {t(`addressSpace.walk.errors.${error.code}`)}
          </p>
        )}
        {data === undefined ? (
          <p className="muted">{t('addressSpace.walk.none')}</p>
        ) : (
          <WalkResult data={data} format={format} onSelect={onSelect} />
        )}
        <p className="walk-note muted">{t('addressSpace.walk.modeledNote')}</p>
      </div>
      <TableCountFigure figure={figure} pid={pid} />
    </section>
  );
}

function WalkResult({ data, format, onSelect }: { data: WalkPanelData; format: FormatPrefs; onSelect: (ref: ObjectRef) => void }) {
  const { t } = useTranslation();
  const { backing } = data;
  let sentence: string;
  let target: ObjectRef | undefined;
  switch (backing.kind) {
    case 'allocation':
      sentence = t('addressSpace.walk.mappedBy.allocation', { id: backing.id, fn: backing.fn, pageSize: bytes(backing.pageSize, format) });
      target = { kind: 'allocation', id: backing.id };
      break;
    case 'mapping':
      sentence = t('addressSpace.walk.mappedBy.mapping', {
        id: backing.id,
        handle: backing.handleId,
        value: backing.handleValue === undefined ? '?' : `0x${backing.handleValue.toString(16)}`,
        pageSize: bytes(backing.pageSize, format),
      });
      target = { kind: 'mapping', id: backing.id };
      break;
    case 'ipcImport':
      sentence = t('addressSpace.walk.mappedBy.ipcImport', {
        id: backing.id,
        pid: backing.exporter ?? '?',
        pageSize: bytes(backing.pageSize, format),
      });
      target = { kind: 'allocation', id: backing.id };
      break;
    case 'reserved':
      sentence = t('addressSpace.walk.mappedBy.reserved', { id: backing.id });
      target = { kind: 'reservation', id: backing.id };
      break;
    case 'hole':
      sentence = t('addressSpace.walk.mappedBy.hole');
      target = undefined;
      break;
  }
  const leaf = data.steps.at(-1);
  return (
    <div className="walk-result" data-testid="walk-result" data-mapped={data.mapped} data-va={data.va}>
      <p className={`walk-backing ${data.mapped ? 'walk-mapped' : 'walk-unmapped'}`} data-testid="walk-backing">
        {sentence}{' '}
        {target !== undefined && (
          <button type="button" className="link-button" onClick={() => onSelect(target)}>
            {t('addressSpace.walk.select')}
          </button>
        )}
      </p>
      {data.walk === undefined ? (
        <p className="walk-error">{t('addressSpace.walk.granule', { message: data.walkError ?? '' })}</p>
      ) : (
        <>
          <WalkBits walk={data.walk} steps={data.steps} mapped={data.mapped} />
          <p className="walk-leaf">
            {data.mapped && leaf !== undefined
              ? t('addressSpace.walk.leaf', { level: leaf.level, entry: t(`addressSpace.walk.entry.${leaf.entry}`) })
              : t('addressSpace.walk.unmappedLeaf')}
          </p>
          {data.mapped && (
            <dl className="walk-facts">
              <dt>{t('addressSpace.walk.pageBase')}</dt>
              <dd className="mono" data-testid="walk-page-base">
                {address(data.walk.pageBase, format)}
              </dd>
              <dt>{t('addressSpace.walk.offset')}</dt>
              <dd className="mono" data-testid="walk-offset">
                {format.addresses === 'hex' ? `0x${data.walk.offset.toString(16)}` : data.walk.offset} ({bytes(data.walk.offset, format)})
              </dd>
              {data.place !== undefined && <PhysicalFact place={data.place} format={format} onSelect={onSelect} />}
            </dl>
          )}
        </>
      )}
    </div>
  );
}

/** The walk's last step: the (modeled) physical frame and address the page lands on, with a link to the frame. */
function PhysicalFact({ place, format, onSelect }: { place: PhysicalPlace; format: FormatPrefs; onSelect: (ref: ObjectRef) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <dt>{t('addressSpace.walk.physical.label')}</dt>
      <dd data-testid="walk-physical" data-frame={place.kind === 'placed' ? place.frame : undefined}>
        {place.kind === 'unobserved' ? (
          t('addressSpace.walk.physical.unobserved')
        ) : (
          <>
            {place.span !== undefined
              ? t('addressSpace.walk.physical.giant', { first: place.span[0], last: place.span[1], frame: place.frame })
              : place.pageInFrame !== undefined
                ? t('addressSpace.walk.physical.normal', { frame: place.frame, page: place.pageInFrame })
                : t('addressSpace.walk.physical.huge', { frame: place.frame })}{' '}
            <span className="mono">{address(place.physical, format)}</span>{' '}
            <span className="provenance provenance-modeled hatch" title={t('addressSpace.walk.physical.modeledNote')}>
              {t('common.provenance.modeled')}
            </span>{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => onSelect({ kind: 'frame', id: place.frame, device: place.device })}
              data-testid="walk-physical-frame"
            >
              {t('addressSpace.walk.physical.show')}
            </button>
          </>
        )}
      </dd>
    </>
  );
}
