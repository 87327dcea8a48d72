import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { useFileActions } from '../../store/ImportContext.tsx';

/** "Open file…" in the header, and the O key: a file picker for memory snapshots. */
export function OpenFileButton() {
  const { t } = useTranslation();
  const files = useFileActions();
  const input = useRef<HTMLInputElement>(null);
  useShortcut({ key: 'O', shift: true, label: 'fileImport.shortcut', group: 'shell.help.groups.general' }, () => input.current?.click());
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} title={t('fileImport.openTitle')} data-testid="open-file">
        {t('fileImport.open')}
      </button>
      <input
        ref={input}
        type="file"
        accept=".pickle,.pkl,.csv,.db"
        hidden
        data-testid="open-file-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file !== undefined) files.open(file);
          event.target.value = '';
        }}
      />
    </>
  );
}
