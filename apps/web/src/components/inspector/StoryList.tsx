import { useTranslation } from 'react-i18next';
import type { StoryEntry } from '../../model/inspector/story.ts';

export interface StoryListProps {
  readonly entries: readonly StoryEntry[];
  readonly cursorSeq: number;
  readonly onJump: (seq: number) => void;
}

/** An object's whole life, oldest first; choosing a step moves the time cursor there. */
export function StoryList({ entries, cursorSeq, onJump }: StoryListProps) {
  const { t } = useTranslation();
  let current = -1;
  entries.forEach((entry, index) => {
    if (entry.seq <= cursorSeq) current = index;
  });
  return (
    <section className="inspector-section" data-testid="inspector-story">
      <h3 className="section-title">{t('inspector.story.title')}</h3>
      {entries.length === 0 ? (
        <p className="muted">{t('inspector.story.none')}</p>
      ) : (
        <ol className="story">
          {entries.map((entry, index) => (
            <li
              key={entry.seq}
              className={`story-${entry.tone}${entry.seq > cursorSeq ? ' future' : ''}${index === current ? ' current' : ''}`}
              aria-current={index === current ? 'step' : undefined}
            >
              <button
                type="button"
                onClick={() => onJump(entry.jumpSeq)}
                title={t('inspector.story.jump', { seq: entry.jumpSeq })}
                data-testid="story-entry"
              >
                <span className="story-seq mono">{entry.seq}</span>
                <span className="story-text">{t(entry.key, { ...entry.params, defaultValue: entry.key.split('.').pop() })}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
