import { useTranslation } from 'react-i18next';
import { useReasonText } from '../../i18n/useReasonText.ts';
import type { Fact, Inspection } from '../../model/inspector/fact.ts';
import type { RenderedArg } from '../../model/log/arg-format.ts';
import type { Target } from '../../model/log/effects.ts';
import { Breakable } from '../common/Breakable.tsx';

function factId(label: string): string {
  return label.split('.').pop() ?? label;
}

function FactValue({ fact, onSelect }: { fact: Fact; onSelect: (target: Target) => void }) {
  const { t } = useTranslation();
  const value = fact.key === undefined ? (fact.text ?? '') : t(fact.key, { ...fact.params });
  const link = fact.link;
  return (
    <dd
      className={
        [fact.key === undefined ? 'literal' : '', fact.tone === undefined ? '' : `tone-${fact.tone}`].filter(Boolean).join(' ') || undefined
      }
    >
      {link === undefined ? (
        <span className="fact-value">{fact.key === undefined ? <Breakable text={value} /> : value}</span>
      ) : (
        <button type="button" className="link-button mono" onClick={() => onSelect(link)}>
          {t(`inspector.kind.${link.kind}`)} {value}
        </button>
      )}
      {fact.exact !== undefined && <span className="fact-exact mono">{fact.exact}</span>}
      {fact.provenance === 'modeled' && (
        <span className="provenance provenance-modeled hatch" title={t('inspector.modeledTitle')}>
          {t('common.provenance.modeled')}
        </span>
      )}
    </dd>
  );
}

/** The facts of an object as a definition list; linked values select the object they name. */
export function FactList({ facts, onSelect }: { facts: readonly Fact[]; onSelect: (target: Target) => void }) {
  const { t } = useTranslation();
  return (
    <dl className="facts">
      {facts.map((fact) => (
        <div key={fact.label} className="fact" data-testid={`fact-${factId(fact.label)}`}>
          <dt>{t(fact.label)}</dt>
          <FactValue fact={fact} onSelect={onSelect} />
        </div>
      ))}
    </dl>
  );
}

/** The decision, one reason a line with its rule IDs (DM-3, DM-4…), and the objects that belong to this one. */
export function DecisionAndRelated({ inspection, onSelect }: { inspection: Inspection; onSelect: (target: Target) => void }) {
  const { t } = useTranslation();
  const reasonText = useReasonText();
  return (
    <>
      {inspection.reasons.length > 0 && (
        <section className="inspector-section" data-testid="inspector-decision">
          <h3 className="section-title">{t('inspector.decision')}</h3>
          <ol className="reasons">
            {inspection.reasons.map((reason, index) => (
              // Reasons have no identity of their own; their order is the decision's order.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={index} data-testid="inspector-reason">
                {reasonText(reason, true)}
              </li>
            ))}
          </ol>
        </section>
      )}
      {inspection.rules.length > 0 && (
        <p className="inspector-rules">
          <span className="muted">{t('inspector.rules')}</span>{' '}
          {inspection.rules.map((rule) => (
            <span key={rule} className="rule-chip mono">
              {rule}
            </span>
          ))}
        </p>
      )}
      {inspection.related.length > 0 && (
        <section className="inspector-section">
          <h3 className="section-title">{t(inspection.relatedTitle ?? 'inspector.relatedTitle')}</h3>
          <ul className="plain-list related">
            {inspection.related.map(({ label, target }) => {
              const what = t(label, { defaultValue: label.split('.').pop() });
              const kind = t(`inspector.kind.${target.kind}`);
              return (
                <li key={`${target.kind}-${target.id}-${label}`}>
                  <button type="button" className="link-button" onClick={() => onSelect(target)}>
                    {what === kind ? `${kind} #${target.id}` : `${what}: ${kind} #${target.id}`}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </>
  );
}

/** A call's arguments in C parameter order; outputs (written by a successful call) marked "out". */
export function ArgList({ args }: { args: readonly RenderedArg[] }) {
  const { t } = useTranslation();
  if (args.length === 0) return null;
  return (
    <section className="inspector-section" data-testid="inspector-args">
      <h3 className="section-title">{t('inspector.args')}</h3>
      <dl className="facts args">
        {args.map((arg) => (
          <div key={`${arg.dir}-${arg.name}`} className="fact">
            <dt className="mono">
              {arg.name}
              {arg.dir === 'out' && <span className="arg-out"> {t('inspector.argOut')}</span>}
            </dt>
            <dd className="mono">{arg.text}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
