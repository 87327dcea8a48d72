import type { InputDecl } from '@pagelens/core';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeEditor, type EditorApi } from './CodeEditor.tsx';
import type { EditorMarks } from './editor-marks.ts';

interface InputsPanelProps {
  readonly inputs: readonly InputDecl[];
  readonly setup: string;
  readonly editable: boolean;
  readonly dark: boolean;
  readonly setupMarks: EditorMarks;
  readonly setupApi: RefObject<EditorApi | null>;
  readonly open: boolean;
  readonly onToggle: (open: boolean) => void;
  readonly onInputs: (inputs: readonly InputDecl[]) => void;
  readonly onSetup: (setup: string) => void;
}

const CTYPES = ['size_t', 'uint64_t', 'int64_t', 'uint32_t', 'int32_t', 'int', 'void*', 'aclrtStream', 'aclrtDrvMemHandle'];

function replace(inputs: readonly InputDecl[], index: number, change: Partial<InputDecl>): InputDecl[] {
  return inputs.map((input, i) => {
    if (i !== index) return input;
    const next = { ...input, ...change };
    return next.value === undefined || next.value === '' ? { name: next.name, ctype: next.ctype } : next;
  });
}

/** The scenario's inputs (`size = 4 MiB`) and setup, shown above the code and editable like it. */
export function InputsPanel({ inputs, setup, editable, dark, setupMarks, setupApi, open, onToggle, onInputs, onSetup }: InputsPanelProps) {
  const { t } = useTranslation();
  const setupText = setup
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  const summary = [
    inputs.length === 0 ? t('playground.inputs.summary', { count: 0 }) : inputs.map((i) => `${i.name} = ${i.value ?? '—'}`).join(', '),
    setupText === '' ? undefined : t('playground.inputs.summarySetup', { code: setupText }),
  ]
    .filter((part) => part !== undefined)
    .join(' · ');
  return (
    <details className="pl-inputs" open={open} onToggle={(event) => onToggle(event.currentTarget.open)} data-testid="pl-inputs">
      <summary>
        <span className="section-title">{t('playground.inputs.title')}</span> <span className="muted mono">{summary}</span>
      </summary>
      <div className="pl-inputs-body">
        <div className="pl-inputs-table">
          <p className="muted pl-help">{t('playground.inputs.help')}</p>
          {inputs.length === 0 ? (
            <p className="muted">{t('playground.inputs.none')}</p>
          ) : (
            <table className="data">
              <thead>
                <tr>
                  <th>{t('playground.inputs.name')}</th>
                  <th>{t('playground.inputs.type')}</th>
                  <th>{t('playground.inputs.value')}</th>
                  <th>
                    <span className="visually-hidden">{t('playground.inputs.remove', { name: '' })}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {inputs.map((input, index) => (
                  // Inputs are edited in place: the position is their identity while typing a new name.
                  // biome-ignore lint/suspicious/noArrayIndexKey: see above
                  <tr key={index}>
                    <td>
                      <input
                        className="mono"
                        value={input.name}
                        disabled={!editable}
                        aria-label={t('playground.inputs.name')}
                        onChange={(event) => onInputs(replace(inputs, index, { name: event.currentTarget.value.trim() }))}
                        size={10}
                      />
                    </td>
                    <td>
                      <input
                        className="mono"
                        list="pl-ctypes"
                        value={input.ctype}
                        disabled={!editable}
                        aria-label={t('playground.inputs.type')}
                        onChange={(event) => onInputs(replace(inputs, index, { ctype: event.currentTarget.value }))}
                        size={12}
                      />
                    </td>
                    <td>
                      <input
                        className="mono"
                        value={input.value ?? ''}
                        disabled={!editable}
                        aria-label={t('playground.inputs.value')}
                        onChange={(event) => onInputs(replace(inputs, index, { value: event.currentTarget.value }))}
                        size={10}
                        data-testid={`pl-input-${input.name}`}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="pl-icon"
                        disabled={!editable}
                        onClick={() => onInputs(inputs.filter((_, i) => i !== index))}
                        aria-label={t('playground.inputs.remove', { name: input.name })}
                        title={t('playground.inputs.remove', { name: input.name })}
                      >
                        ×
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <datalist id="pl-ctypes">
            {CTYPES.map((ctype) => (
              <option key={ctype} value={ctype} />
            ))}
          </datalist>
          <button
            type="button"
            disabled={!editable}
            onClick={() => onInputs([...inputs, { name: `input${inputs.length + 1}`, ctype: 'size_t', value: '4 MiB' }])}
          >
            {t('playground.inputs.add')}
          </button>
        </div>
        <div className="pl-setup">
          <p className="muted pl-help">
            <strong>{t('playground.inputs.setup')}</strong> — {t('playground.inputs.setupHelp')}
          </p>
          <CodeEditor
            value={setup}
            onChange={onSetup}
            readOnly={!editable}
            dark={dark}
            marks={setupMarks}
            label={t('playground.inputs.setupLabel')}
            testId="pl-setup-editor"
            apiRef={setupApi}
            className="pl-editor-setup"
          />
        </div>
      </div>
    </details>
  );
}
