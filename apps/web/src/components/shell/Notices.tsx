import { useTranslation } from 'react-i18next';
import { useCodedText } from '../../i18n/useCodedText.ts';
import { selectNotices } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/** Messages from the agent (takeover, reset, refused requests), newest last, each dismissible. */
export function Notices() {
  const { t } = useTranslation();
  const say = useCodedText();
  const notices = useAppStore(selectNotices);
  const dismiss = useAppStore((state) => state.dismissNotice);
  if (notices.length === 0) return null;
  return (
    <ul className="notices" aria-live="polite" data-testid="notices">
      {notices.map((notice) => (
        <li key={notice.at} className={`notice notice-${notice.level}`} data-code={notice.code}>
          <span>{say(notice.messageCode, notice.message)}</span>
          <button type="button" onClick={() => dismiss(notice.at)} aria-label={t('shell.notice.dismiss')}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
