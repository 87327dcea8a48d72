import { SCENARIOS } from '@pagelens/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocSource } from '../../model/playground/controller.ts';
import { docFromScenario, type PlaygroundDoc, type Problem, sameProgram } from '../../model/playground/playground-doc.ts';
import type { SavedScenario } from '../../model/playground/saved-scenarios.ts';
import { SavedPanel, SavePanel } from './SavePanels.tsx';
import { ScenarioHostNote } from './ScenarioHostNote.tsx';
import { OpenLinkPanel, SharePanel } from './SharePanels.tsx';

export type BarPanel = 'none' | 'save' | 'saved' | 'share' | 'open';

/** The buttons that open a panel under the bar, in order: the panel, its label key and its test id. */
const PANEL_BUTTONS: readonly { panel: Exclude<BarPanel, 'none'>; label: string; testId: string }[] = [
  { panel: 'save', label: 'playground.save.save', testId: 'pl-save' },
  { panel: 'saved', label: 'playground.save.manage', testId: 'pl-saved' },
  { panel: 'share', label: 'playground.share.share', testId: 'pl-share' },
  { panel: 'open', label: 'playground.share.open', testId: 'pl-open-link' },
];

interface ScenarioBarProps {
  readonly doc: PlaygroundDoc;
  readonly source: DocSource;
  readonly saved: readonly SavedScenario[];
  /** Why the saved list could not be read, if it could not. */
  readonly savedProblem: Problem | undefined;
  /** False while an execution is paused or running: the document cannot be replaced then. */
  readonly canReplace: boolean;
  readonly onOpen: (doc: PlaygroundDoc, source: DocSource) => void;
  readonly onSavedChange: (saved: readonly SavedScenario[], current?: DocSource) => void;
}

function sourceValue(source: DocSource): string {
  return source.kind === 'builtin' || source.kind === 'saved' ? `${source.kind}:${source.id}` : source.kind;
}

/** The scenario picker (built-in, saved, shared), with Save, Saved, Share and Open a link. */
export function ScenarioBar({ doc, source, saved, savedProblem, canReplace, onOpen, onSavedChange }: ScenarioBarProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'zh' ? 'zh' : 'en';
  const [panel, setPanel] = useState<BarPanel>('none');
  const builtin = source.kind === 'builtin' ? SCENARIOS.find((s) => s.id === source.id) : undefined;
  const savedOne = source.kind === 'saved' ? saved.find((s) => s.id === source.id) : undefined;
  const original = builtin !== undefined ? docFromScenario(builtin, language) : savedOne?.doc;
  const edited = original !== undefined && !sameProgram(original, doc);
  const choose = (value: string) => {
    const [kind, id = ''] = value.split(/:(.*)/s);
    const scenario = kind === 'builtin' ? SCENARIOS.find((s) => s.id === id) : undefined;
    if (scenario !== undefined) onOpen(docFromScenario(scenario, language), { kind: 'builtin', id });
    const mine = kind === 'saved' ? saved.find((s) => s.id === id) : undefined;
    if (mine !== undefined) onOpen(mine.doc, { kind: 'saved', id });
  };
  const toggle = (next: BarPanel) => setPanel(panel === next ? 'none' : next);
  const optionLabel = (label: string, selected: boolean) => (selected && edited ? t('playground.scenario.edited', { name: label }) : label);
  return (
    <div className="pl-scenario">
      <div className="pl-bar">
        <label className="pl-picker">
          <span className="visually-hidden">{t('playground.scenario.label')}</span>
          <select
            value={sourceValue(source)}
            onChange={(event) => choose(event.currentTarget.value)}
            disabled={!canReplace}
            title={canReplace ? t('playground.scenario.label') : t('playground.save.busy')}
            data-testid="pl-scenario"
          >
            {source.kind === 'shared' && <option value="shared">{t('playground.scenario.shared', { name: doc.name })}</option>}
            {source.kind === 'new' && <option value="new">{doc.name}</option>}
            <optgroup label={t('playground.scenario.seedGroup')}>
              {SCENARIOS.filter((s) => s.origin === 'seed').map((s) => (
                <option key={s.id} value={`builtin:${s.id}`}>
                  {optionLabel(s.title[language], source.kind === 'builtin' && source.id === s.id)}
                </option>
              ))}
            </optgroup>
            <optgroup label={t('playground.scenario.builtinGroup')}>
              {SCENARIOS.filter((s) => s.origin !== 'seed').map((s) => (
                <option key={s.id} value={`builtin:${s.id}`}>
                  {optionLabel(s.title[language], source.kind === 'builtin' && source.id === s.id)}
                </option>
              ))}
            </optgroup>
            {saved.length > 0 && (
              <optgroup label={t('playground.scenario.savedGroup')}>
                {saved.map((s) => (
                  <option key={s.id} value={`saved:${s.id}`}>
                    {optionLabel(s.doc.name, source.kind === 'saved' && source.id === s.id)}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        {edited && (
          <span className="pl-tag pl-edited" data-testid="pl-edited">
            {t('playground.scenario.editedBadge')}
          </span>
        )}
        {PANEL_BUTTONS.map((button) => (
          <button
            key={button.panel}
            type="button"
            aria-expanded={panel === button.panel}
            onClick={() => toggle(button.panel)}
            data-testid={button.testId}
          >
            {t(button.label)}
          </button>
        ))}
      </div>
      {builtin !== undefined && <ScenarioHostNote key={builtin.id} scenario={builtin} />}
      {builtin !== undefined && (
        <details className="pl-description">
          <summary>{t('playground.scenario.showDescription')}</summary>
          <p>{builtin.description[language]}</p>
          <p className="muted">
            {t('playground.scenario.rules')}: <span className="mono">{builtin.rules.join(', ')}</span>
          </p>
        </details>
      )}
      {panel === 'save' && (
        <SavePanel
          doc={doc}
          onClose={() => setPanel('none')}
          onSaved={(list, id) => {
            onSavedChange(list, { kind: 'saved', id });
          }}
        />
      )}
      {panel === 'saved' && (
        <SavedPanel
          saved={saved}
          loadProblem={savedProblem}
          canOpen={canReplace}
          onClose={() => setPanel('none')}
          onOpen={(item) => {
            onOpen(item.doc, { kind: 'saved', id: item.id });
            setPanel('none');
          }}
          onChange={(list) => onSavedChange(list)}
        />
      )}
      {panel === 'share' && <SharePanel doc={doc} onClose={() => setPanel('none')} />}
      {panel === 'open' && (
        <OpenLinkPanel
          canOpen={canReplace}
          onClose={() => setPanel('none')}
          onOpen={(opened) => {
            onOpen(opened, { kind: 'shared' });
            setPanel('none');
          }}
        />
      )}
    </div>
  );
}
