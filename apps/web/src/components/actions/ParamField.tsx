import { aclrtMallocAttrType, shortName } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import type { FieldSpec } from '../../model/actions/form-spec.ts';
import { type FormObject, type FormValue, readInt } from '../../model/actions/form-values.ts';
import type { LiveObject } from '../../model/actions/live-objects.ts';
import { Breakable } from '../common/Breakable.tsx';
import { PointerPicker, useLiveKeys } from './PointerPicker.tsx';
import { SizeInput } from './SizeInput.tsx';

export type Path = readonly (string | number)[];

interface ParamFieldProps {
  readonly fn: string;
  readonly field: FieldSpec;
  readonly value: FormValue | undefined;
  /** The default at this path, to restore when NULL is unticked or an item is added. */
  readonly fallback: FormValue | undefined;
  readonly path: Path;
  readonly siblings: FormObject;
  readonly onChange: (path: Path, value: FormValue, picked?: LiveObject) => void;
}

/** An example of each list kind's comma-separated text. */
const LIST_PLACEHOLDERS = { int: '1234, 5678', size: '4096, 2 MiB', ptr: '0x12c0000000, 0x12c0200000' } as const;

const text = (value: FormValue | undefined): string => (typeof value === 'string' ? value : '');
const isObject = (value: FormValue | undefined): value is FormObject =>
  value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
const list = (value: FormValue | undefined): readonly FormValue[] => (Array.isArray(value) ? value : []);

function Label({ id, field }: { id: string; field: FieldSpec }) {
  return (
    <label htmlFor={id}>
      {field.name} <span className="muted mono act-ctype">{field.ctype}</span>
    </label>
  );
}

/** One input of a generated form, by the catalogue's value type; structs and arrays recurse. */
export function ParamField({ fn, field, value, fallback, path, siblings, onChange }: ParamFieldProps) {
  const { t } = useTranslation();
  const id = `act-${fn}-${path.join('-')}`;
  const set = (next: FormValue, picked?: LiveObject) => onChange(path, next, picked);
  // IP-2 … IP-4: a key parameter offers the live IPC keys that fit the call (typing one stays possible).
  const keys = useLiveKeys(fn, field.kind === 'string' && field.name === 'key');
  switch (field.kind) {
    case 'int': {
      const ok = readInt(text(value), field.min, field.limit) !== undefined;
      return (
        <div className="act-field">
          <Label id={id} field={field} />
          <input id={id} className="mono" value={text(value)} aria-invalid={!ok} onChange={(event) => set(event.target.value)} />
          {!ok && <p className="act-note act-invalid">{t('actions.call.problem.int', { min: field.min, max: field.limit - 1 })}</p>}
        </div>
      );
    }
    case 'size':
      return <SizeInput id={id} label={`${field.name} · ${field.ctype}`} value={text(value)} onChange={set} />;
    case 'count': {
      const counted = siblings[field.of];
      const auto = Array.isArray(counted)
        ? counted.length
        : text(counted)
            .split(',')
            .filter((part) => part.trim() !== '').length;
      return (
        <div className="act-field">
          <Label id={id} field={field} />
          <input
            id={id}
            className="mono"
            value={text(value)}
            placeholder={t('actions.call.auto', { count: auto })}
            onChange={(event) => set(event.target.value)}
          />
        </div>
      );
    }
    case 'enum':
      return (
        <div className="act-field">
          <Label id={id} field={field} />
          <select id={id} value={text(value)} onChange={(event) => set(event.target.value)}>
            {field.table.names.map((name) => (
              <option key={name} value={String(field.table.valueOf(name))}>
                {name}
              </option>
            ))}
          </select>
        </div>
      );
    case 'flags': {
      const bits = readInt(text(value), 0, 2 ** 32) ?? 0;
      return (
        <fieldset className="act-sub">
          <legend>
            {field.name} <span className="muted mono act-ctype">{field.ctype}</span>
          </legend>
          {field.table.names.map((name) => {
            const bit = field.table.valueOf(name) ?? 0;
            if (bit === 0) return null;
            return (
              <label key={name} className="act-check">
                <input
                  type="checkbox"
                  checked={(bits & bit) === bit}
                  onChange={(event) => set(String((event.target.checked ? bits | bit : bits & ~bit) >>> 0))}
                />
                <code>
                  <Breakable text={name} />
                </code>
              </label>
            );
          })}
          <p className="act-note mono">= 0x{bits.toString(16)}</p>
        </fieldset>
      );
    }
    case 'pointer':
      return (
        <PointerPicker
          id={id}
          label={field.name}
          ctype={field.ctype}
          picks={field.picks}
          value={text(value)}
          onChange={(next, picked) => set(next, picked)}
        />
      );
    case 'string':
      return (
        <div className="act-field">
          <Label id={id} field={field} />
          <div className="act-inline">
            <input
              id={id}
              value={text(value)}
              disabled={value === null}
              list={keys.length > 0 ? `${id}-keys` : undefined}
              onChange={(event) => set(event.target.value)}
            />
            {keys.length > 0 && (
              <datalist id={`${id}-keys`}>
                {keys.map((item) => (
                  <option key={item.key} value={item.key}>
                    {t(item.imported ? 'actions.call.ipcKeyImported' : 'actions.call.ipcKeyOf', { id: item.allocation, pid: item.pid })}
                  </option>
                ))}
              </datalist>
            )}
            <label className="act-check">
              <input type="checkbox" checked={value === null} onChange={(event) => set(event.target.checked ? null : '')} />
              {t('actions.call.textNull')}
            </label>
          </div>
        </div>
      );
    case 'list':
      return (
        <div className="act-field">
          <Label id={id} field={field} />
          <input
            id={id}
            className="mono"
            value={text(value)}
            placeholder={LIST_PLACEHOLDERS[field.item]}
            onChange={(event) => set(event.target.value)}
          />
        </div>
      );
    case 'struct': {
      const object = isObject(value) ? value : undefined;
      const defaults = isObject(fallback) ? fallback : undefined;
      return (
        <fieldset className="act-sub">
          <legend>
            {field.name} <span className="muted mono act-ctype">{field.ctype}</span>
          </legend>
          {field.nullable && (
            <label className="act-check">
              <input
                type="checkbox"
                checked={object === undefined}
                onChange={(event) => set(event.target.checked ? null : (defaults ?? {}))}
              />
              {t('actions.call.nullStruct')}
            </label>
          )}
          {object !== undefined &&
            field.fields.map((member) => (
              <ParamField
                key={member.name}
                fn={fn}
                field={member}
                value={object[member.name]}
                fallback={defaults?.[member.name]}
                path={[...path, member.name]}
                siblings={object}
                onChange={onChange}
              />
            ))}
        </fieldset>
      );
    }
    case 'structArray': {
      const items = list(value);
      const template = list(fallback)[0] ?? null;
      return (
        <fieldset className="act-sub">
          <legend>
            {field.name} <span className="muted mono act-ctype">{field.ctype}</span>
          </legend>
          {items.map((item, index) => (
            // Array elements are positions in a C array: the index is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <div key={index} className="act-item">
              <ParamField
                fn={fn}
                field={field.item}
                value={item}
                fallback={template}
                path={[...path, index]}
                siblings={siblings}
                onChange={onChange}
              />
              <button type="button" className="act-small-button" onClick={() => set(items.filter((_, at) => at !== index))}>
                {t('actions.call.removeItem')}
              </button>
            </div>
          ))}
          <button type="button" className="act-small-button" onClick={() => set([...items, template])}>
            {t('actions.call.addItem')}
          </button>
        </fieldset>
      );
    }
    case 'mallocConfig': {
      const config = isObject(value) ? value : undefined;
      const attrs = list(config?.attrs);
      const setAttrs = (next: readonly FormValue[]) => set({ attrs: next });
      return (
        <fieldset className="act-sub">
          <legend>
            {field.name} <span className="muted mono act-ctype">{field.ctype}</span>
          </legend>
          <label className="act-check">
            <input type="checkbox" checked={config === undefined} onChange={(event) => set(event.target.checked ? null : { attrs: [] })} />
            {t('actions.call.nullStruct')}
          </label>
          {config !== undefined && attrs.length === 0 && <p className="act-note">{t('actions.call.noAttrs')}</p>}
          {config !== undefined &&
            attrs.map((attr, index) => {
              const item = isObject(attr) ? attr : {};
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: positions in the C attrs array
                <div key={index} className="act-item act-inline">
                  <select
                    aria-label={`${field.name}.attrs[${index}].attr`}
                    value={text(item.attr)}
                    onChange={(event) => setAttrs(attrs.map((other, at) => (at === index ? { ...item, attr: event.target.value } : other)))}
                  >
                    {aclrtMallocAttrType.names.map((name) => (
                      <option key={name} value={String(aclrtMallocAttrType.valueOf(name))}>
                        {shortName(aclrtMallocAttrType, name)}
                      </option>
                    ))}
                  </select>
                  <input
                    className="mono act-narrow"
                    aria-label={`${field.name}.attrs[${index}].value`}
                    value={text(item.value)}
                    onChange={(event) =>
                      setAttrs(attrs.map((other, at) => (at === index ? { ...item, value: event.target.value } : other)))
                    }
                  />
                  <button type="button" className="act-small-button" onClick={() => setAttrs(attrs.filter((_, at) => at !== index))}>
                    {t('actions.call.removeItem')}
                  </button>
                </div>
              );
            })}
          {config !== undefined && (
            <button type="button" className="act-small-button" onClick={() => setAttrs([...attrs, { attr: '3', value: '1' }])}>
              {t('actions.call.addItem')}
            </button>
          )}
        </fieldset>
      );
    }
  }
}
