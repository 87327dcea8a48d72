import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlaygroundDoc, Problem } from '../../model/playground/playground-doc.ts';
import { deleteScenario, renameScenario, type SavedScenario, saveScenario } from '../../model/playground/saved-scenarios.ts';

/** Local storage, or undefined where the browser refuses it (some private modes throw on access). */
export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function useProblemText(): (problem: Problem) => string {
  const { t } = useTranslation();
  return (problem) => t(`playground.problemText.${problem.key}`, problem.values ?? {});
}

function newId(): string {
  return typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `s${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}

interface SavePanelProps {
  readonly doc: PlaygroundDoc;
  readonly onClose: () => void;
  readonly onSaved: (list: readonly SavedScenario[], id: string) => void;
}

/** Save the current code, inputs and setup in this browser under a name (the same name updates it). */
export function SavePanel({ doc, onClose, onSaved }: SavePanelProps) {
  const { t } = useTranslation();
  const problemText = useProblemText();
  const [name, setName] = useState(doc.name);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const submit = () => {
    const result = saveScenario(browserStorage(), { ...doc, name }, Date.now(), newId);
    if (!result.ok) {
      setMessage({ ok: false, text: problemText(result.problem) });
      return;
    }
    onSaved(result.value.list, result.value.id);
    setMessage({ ok: true, text: t('playground.save.saved', { name: name.trim() }) });
  };
  return (
    <form
      className="pl-drawer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      data-testid="pl-save-panel"
    >
      <label>
        {t('playground.save.name')}{' '}
        <input value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={120} size={36} data-testid="pl-save-name" />
      </label>
      <button type="submit">{t('playground.save.confirm')}</button>
      <button type="button" onClick={onClose}>
        {t('playground.save.close')}
      </button>
      {message !== undefined && (
        <p className={message.ok ? 'pl-ok' : 'pl-error'} role={message.ok ? 'status' : 'alert'} data-testid="pl-save-message">
          {message.text}
        </p>
      )}
    </form>
  );
}

interface SavedPanelProps {
  readonly saved: readonly SavedScenario[];
  readonly loadProblem: Problem | undefined;
  readonly canOpen: boolean;
  readonly onClose: () => void;
  readonly onOpen: (item: SavedScenario) => void;
  readonly onChange: (list: readonly SavedScenario[]) => void;
}

/** The saved scenarios: open, rename, delete. */
export function SavedPanel({ saved, loadProblem, canOpen, onClose, onOpen, onChange }: SavedPanelProps) {
  const { t, i18n } = useTranslation();
  const problemText = useProblemText();
  const [renaming, setRenaming] = useState<{ id: string; name: string } | undefined>(undefined);
  const [deleting, setDeleting] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const apply = (result: ReturnType<typeof deleteScenario>) => {
    if (!result.ok) {
      setError(problemText(result.problem));
      return false;
    }
    setError(undefined);
    onChange(result.value);
    return true;
  };
  const when = (ms: number) => new Date(ms).toLocaleString(i18n.language === 'zh' ? 'zh-CN' : 'en');
  return (
    <section className="pl-drawer pl-saved" aria-label={t('playground.save.manageTitle')} data-testid="pl-saved-panel">
      <h3 className="section-title">{t('playground.save.manageTitle')}</h3>
      {loadProblem !== undefined && (
        <p className="pl-error" role="alert">
          {problemText(loadProblem)}
        </p>
      )}
      {error !== undefined && (
        <p className="pl-error" role="alert">
          {error}
        </p>
      )}
      {saved.length === 0 && loadProblem === undefined && <p className="muted">{t('playground.save.empty')}</p>}
      <ul>
        {saved.map((item) => (
          <li key={item.id} data-testid="pl-saved-item">
            {renaming?.id === item.id ? (
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  if (apply(renameScenario(browserStorage(), item.id, renaming.name))) setRenaming(undefined);
                }}
              >
                <input
                  value={renaming.name}
                  aria-label={t('playground.save.renameLabel', { name: item.doc.name })}
                  onChange={(event) => setRenaming({ id: item.id, name: event.currentTarget.value })}
                  maxLength={120}
                />
                <button type="submit">{t('playground.save.rename')}</button>
                <button type="button" onClick={() => setRenaming(undefined)}>
                  {t('playground.save.cancel')}
                </button>
              </form>
            ) : deleting === item.id ? (
              <>
                <span>{t('playground.save.deleteConfirm', { name: item.doc.name })}</span>
                <button
                  type="button"
                  className="pl-danger"
                  onClick={() => {
                    if (apply(deleteScenario(browserStorage(), item.id))) setDeleting(undefined);
                  }}
                >
                  {t('playground.save.delete')}
                </button>
                <button type="button" onClick={() => setDeleting(undefined)}>
                  {t('playground.save.cancel')}
                </button>
              </>
            ) : (
              <>
                <span className="pl-saved-name">{item.doc.name}</span>
                <span className="muted">{t('playground.save.savedAt', { time: when(item.savedAt) })}</span>
                <button
                  type="button"
                  disabled={!canOpen}
                  title={canOpen ? undefined : t('playground.save.busy')}
                  onClick={() => onOpen(item)}
                >
                  {t('playground.save.open')}
                </button>
                <button type="button" onClick={() => setRenaming({ id: item.id, name: item.doc.name })}>
                  {t('playground.save.rename')}
                </button>
                <button type="button" onClick={() => setDeleting(item.id)}>
                  {t('playground.save.delete')}
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <button type="button" onClick={onClose}>
        {t('playground.save.close')}
      </button>
    </section>
  );
}
