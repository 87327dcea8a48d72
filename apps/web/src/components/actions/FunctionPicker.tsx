import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS, type AclFunctionName, isAclFunctionName } from '@pagelens/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FUNCTION_CATEGORIES } from '../../model/actions/categories.ts';
import { Field } from './Field.tsx';

const CATEGORIES = FUNCTION_CATEGORIES;

interface FunctionPickerProps {
  readonly value: AclFunctionName;
  readonly offered: ReadonlySet<string> | undefined;
  readonly onChange: (fn: AclFunctionName) => void;
}

/** Every catalogue function, grouped by category and searchable; those the backend lacks are marked. */
export function FunctionPicker({ value, offered, onChange }: FunctionPickerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const needle = query.trim().toLowerCase();
  const matches = ACL_FUNCTION_NAMES.filter(
    (fn) =>
      fn === value ||
      needle === '' ||
      fn.toLowerCase().includes(needle) ||
      t(`actions.call.categories.${ACL_FUNCTIONS[fn].category}`).toLowerCase().includes(needle),
  );
  const matchCount = matches.filter((fn) => fn !== value || fn.toLowerCase().includes(needle)).length;
  return (
    <div className="act-function-picker">
      <Field id="act-call-search" label={t('actions.call.search')}>
        <input
          id="act-call-search"
          type="search"
          value={query}
          placeholder={t('actions.call.searchPlaceholder')}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            // Enter picks the first match, so typing "MapMem⏎" is enough.
            if (event.key !== 'Enter') return;
            event.preventDefault();
            const first = matches.find((fn) => needle === '' || fn.toLowerCase().includes(needle));
            if (first !== undefined) onChange(first);
          }}
          data-testid="call-search"
        />
        {needle !== '' && matchCount === 0 && <p className="act-note">{t('actions.call.noMatch', { query })}</p>}
      </Field>
      <Field id="act-call-fn" label={t('actions.call.function')}>
        <select
          id="act-call-fn"
          value={value}
          onChange={(event) => isAclFunctionName(event.target.value) && onChange(event.target.value)}
          data-testid="call-fn"
        >
          {CATEGORIES.map((category) => {
            const inCategory = matches.filter((fn) => ACL_FUNCTIONS[fn].category === category);
            if (inCategory.length === 0) return null;
            return (
              <optgroup key={category} label={t(`actions.call.categories.${category}`)}>
                {inCategory.map((fn) => {
                  const missing = offered !== undefined && !offered.has(fn);
                  return (
                    <option key={fn} value={fn} className={missing ? 'act-missing' : undefined}>
                      {fn}
                      {missing ? ` — ${t('actions.call.notOffered')}` : ''}
                    </option>
                  );
                })}
              </optgroup>
            );
          })}
        </select>
      </Field>
    </div>
  );
}
