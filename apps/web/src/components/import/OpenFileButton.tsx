import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { useFileActions } from '../../store/ImportContext.tsx';

/**
 * "Open file…" in the header, and Shift+O: a file picker for memory snapshots. A second button (the
 * note on an empty page) takes `shortcut={false}`, so the key stays the header's.
 */
export function OpenFileButton({ shortcut = true }: { readonly shortcut?: boolean }) {
  const { t } = useTranslation();
  const files = useFileActions();
  const input = useRef<HTMLInputElement>(null);
  useShortcut(
    { key: 'O', shift: true, label: 'fileImport.shortcut', group: 'shell.help.groups.general' },
    () => input.current?.click(),
    shortcut,
  );
  return (
    <>
      <button
        type="button"
        onClick={() => input.current?.click()}
        title={t('fileImport.openTitle')}
        data-testid={shortcut ? 'open-file' : 'open-file-again'}
      >
        {t('fileImport.open')}
      </button>
      <input
        ref={input}
        type="file"
        accept=".pickle,.pkl,.csv,.db"
        hidden
        data-testid={shortcut ? 'open-file-input' : 'open-file-again-input'}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file !== undefined) files.open(file);
          event.target.value = '';
        }}
      />
    </>
  );
}
