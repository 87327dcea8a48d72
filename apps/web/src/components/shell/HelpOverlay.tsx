import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { shortcuts } from '../../hooks/shortcuts.ts';
import { useModalDialog } from '../../hooks/useModalDialog.ts';
import { useAppStore } from '../../store/useAppStore.ts';

function keyText(key: string, shift: boolean | undefined): string {
  const names: Record<string, string> = { ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓', Escape: 'Esc', ' ': 'Space' };
  return `${shift === true ? 'Shift + ' : ''}${names[key] ?? key}`;
}

/** Every shortcut mounted right now, grouped; opened with "?". */
export function HelpOverlay() {
  const { t } = useTranslation();
  const open = useAppStore((state) => state.helpOpen);
  const setOpen = useAppStore((state) => state.setHelpOpen);
  const list = useSyncExternalStore(
    (listener) => shortcuts.subscribe(listener),
    () => shortcuts.list(),
  );
  const dialog = useModalDialog(open);
  const groups = new Map<string, typeof list>();
  for (const shortcut of list) groups.set(shortcut.group, [...(groups.get(shortcut.group) ?? []), shortcut]);
  return (
    <dialog ref={dialog} className="help-overlay" onClose={() => setOpen(false)} aria-labelledby="help-title" data-testid="help-overlay">
      <h2 id="help-title">{t('shell.help.title')}</h2>
      {list.length === 0 && <p>{t('shell.help.none')}</p>}
      {[...groups].map(([group, items]) => (
        <section key={group}>
          <h3>{t(group)}</h3>
          <dl>
            {items.map((item) => (
              <div key={`${item.key}-${item.label}`} className="shortcut-row">
                <dt>
                  <kbd>{keyText(item.key, item.shift)}</kbd>
                </dt>
                <dd>{t(item.label)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <form method="dialog">
        <button type="submit">{t('shell.help.close')}</button>
      </form>
    </dialog>
  );
}
