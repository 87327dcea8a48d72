import { UNINITIALIZED, type VariableView } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { objectAtValue } from '../../model/playground/host-objects.ts';
import { useCursorState } from '../../store/hooks.ts';
import { sameRef } from '../../store/selection-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/**
 * The variables visible where the execution is paused: name, C type and value. A pointer or handle
 * that names a live object (at the time cursor) selects it, so every view shows which one it is.
 */
export function VariablesPanel({ variables }: { variables: readonly VariableView[] }) {
  const { t } = useTranslation();
  const state = useCursorState();
  const selection = useAppStore((s) => s.selection);
  const select = useAppStore((s) => s.select);
  return (
    <section className="pl-variables" aria-labelledby="pl-variables-title" data-testid="pl-variables">
      <h3 id="pl-variables-title" className="section-title">
        {t('playground.variables.title')}
      </h3>
      {variables.length === 0 ? (
        <p className="muted">{t('playground.variables.empty')}</p>
      ) : (
        <div className="pl-scroll">
          <table className="data">
            <thead>
              <tr>
                <th>{t('playground.variables.name')}</th>
                <th>{t('playground.variables.type')}</th>
                <th>{t('playground.variables.value')}</th>
              </tr>
            </thead>
            <tbody>
              {variables.map((v) => {
                const held = state === undefined ? undefined : objectAtValue(state, v.value);
                // A struct shows each never-set member the same way: "{a = (uninitialized), b = 0}".
                const shown = v.value.split(UNINITIALIZED).join(t('playground.variables.uninitialized'));
                const selected = held !== undefined && selection !== undefined && sameRef(selection, held);
                return (
                  <tr key={`${v.frame}:${v.name}`} data-name={v.name} className={selected ? 'selected' : undefined}>
                    <td className="mono">
                      {v.name}
                      {v.scope === 'input' && <span className="pl-tag">{t('playground.variables.input')}</span>}
                      {v.scope === 'global' && <span className="pl-tag">{t('playground.variables.global')}</span>}
                    </td>
                    <td className="mono muted">{v.type}</td>
                    <td className="mono pl-value" title={shown}>
                      {held === undefined ? (
                        shown
                      ) : (
                        <button
                          type="button"
                          className="pl-link mono"
                          onClick={() => select(held)}
                          title={t('playground.variables.select', { kind: t(`playground.variables.kinds.${held.kind}`), id: held.id })}
                          data-testid={`pl-var-object-${v.name}`}
                        >
                          {v.value}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** What printf and puts printed. */
export function OutputPanel({ output }: { output: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <section className="pl-output" aria-labelledby="pl-output-title" data-testid="pl-output">
      <h3 id="pl-output-title" className="section-title">
        {t('playground.console.title')}
      </h3>
      {output.length === 0 ? <p className="muted">{t('playground.console.empty')}</p> : <pre className="pl-console">{output.join('')}</pre>}
    </section>
  );
}
