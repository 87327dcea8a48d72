import { type ComponentType, type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { firstUnavailable, isReadOnly } from '../../model/acl/backend.ts';
import { WIZARD_FUNCTIONS } from '../../model/actions/vmm-wizard.ts';
import { selectHostResets } from '../../store/replica-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { GenericCall } from './GenericCall.tsx';
import { HostHelpers } from './HostHelpers.tsx';
import { MemcpyForm } from './MemcpyForm.tsx';
import { QuickAllocate } from './QuickAllocate.tsx';
import { TabActive } from './tab-active.ts';
import { UnavailableNote } from './UnavailableNote.tsx';
import { type Caller, useCaller } from './useCaller.ts';
import { VmmWizard } from './VmmWizard.tsx';
import './actions.css';

const TABS = ['allocate', 'call', 'copy', 'host', 'vmm'] as const;
type Tab = (typeof TABS)[number];

/** The tabs whose form stays mounted (what was typed survives switching tabs); the VMM tab only opens the wizard. */
const FORMS: Readonly<Record<Exclude<Tab, 'vmm'>, ComponentType<{ caller: Caller }>>> = {
  allocate: QuickAllocate,
  call: GenericCall,
  copy: MemcpyForm,
  host: HostHelpers,
};

/** Forms that drive every AclRuntime function without writing code; disabled for viewers. */
export function ActionsPanel() {
  const { t } = useTranslation();
  const caller = useCaller();
  const session = useAppStore((state) => state.session);
  const device = useAppStore((state) => state.device);
  const [tab, setTab] = useState<Tab>('allocate');
  const [wizardOpen, setWizardOpen] = useState(false);
  // The forms remember results and picks of the host they were used on; a reset host starts them fresh.
  const hostResets = useAppStore(selectHostResets);
  // The wizard needs every one of its functions; when the agent refuses one, the VMM tab says which and why.
  const wizardBlocked = firstUnavailable(WIZARD_FUNCTIONS, session);
  const readOnly = session?.role === 'driver' && isReadOnly(session.functions);
  useShortcut({ key: 'w', label: 'actions.shortcuts.wizard', group: 'actions.shortcuts.group' }, () =>
    wizardBlocked === undefined || wizardBlocked.why === 'viewer' ? setWizardOpen(true) : setTab('vmm'),
  );
  useShortcut({ key: 'm', label: 'actions.shortcuts.allocate', group: 'actions.shortcuts.group' }, () => {
    setWizardOpen(false);
    setTab('allocate');
    // The allocate form is always mounted; focus after the tab shows it.
    requestAnimationFrame(() => document.getElementById('act-malloc-size')?.focus());
  });
  const profile = session?.devices[device]?.profile ?? '';
  const closeWizard = () => {
    setWizardOpen(false);
    // Back to where it was opened from, so the keyboard is not left on a hidden button.
    requestAnimationFrame(() => document.querySelector<HTMLButtonElement>(`[data-tab="${tab}"]`)?.focus());
  };

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length] ?? 'allocate';
    setTab(next);
    event.currentTarget.querySelector<HTMLButtonElement>(`[data-tab="${next}"]`)?.focus();
  };

  return (
    <section className="panel act-panel" data-testid="actions" aria-labelledby="act-title" data-role={session?.role}>
      <header className="act-head">
        <h2 id="act-title" className="section-title">
          {t('actions.title')}
        </h2>
        <span className="muted act-small">{t('actions.onDevice', { device, profile })}</span>
      </header>
      {!caller.canCall && (
        <p className="act-viewer" role="note" data-testid="viewer-note">
          {t('actions.viewer')}
        </p>
      )}
      {readOnly && (
        <p className="act-viewer" role="note" data-testid="read-only-note">
          {t('actions.readOnly')}
        </p>
      )}
      <div className="tabs act-tabs" hidden={wizardOpen} role="tablist" aria-label={t('actions.tabsLabel')} onKeyDown={onTabKey}>
        {TABS.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`act-tab-${id}`}
            aria-selected={tab === id}
            aria-controls="act-tabpanel"
            tabIndex={tab === id ? 0 : -1}
            data-tab={id}
            data-testid={`actions-tab-${id}`}
            onClick={() => setTab(id)}
          >
            {t(`actions.tabs.${id}`)}
          </button>
        ))}
      </div>
      <div id="act-tabpanel" role="tabpanel" hidden={wizardOpen} aria-labelledby={`act-tab-${tab}`}>
        {/* Each form disables its inputs for viewers (a disabled fieldset); tabs and the function list stay browsable. */}
        <div className="act-frame" key={hostResets}>
          {Object.entries(FORMS).map(([id, Form]) => (
            <TabActive.Provider key={id} value={tab === id}>
              <div hidden={tab !== id}>
                <Form caller={caller} />
              </div>
            </TabActive.Provider>
          ))}
          {tab === 'vmm' && (
            <div className="act-form">
              <p className="act-note">{t('actions.wizard.intro')}</p>
              <UnavailableNote fn={wizardBlocked?.fn ?? ''} why={wizardBlocked?.why} testId="wizard-unavailable" />
              <button
                type="button"
                className="act-primary"
                onClick={() => setWizardOpen(true)}
                disabled={!caller.canCall || wizardBlocked !== undefined}
                data-testid="open-wizard"
              >
                {t('actions.wizard.open')}
              </button>
            </div>
          )}
        </div>
      </div>
      {/* Beside the centre, not over it: the address space stays in view while stepping. */}
      <VmmWizard open={wizardOpen} onClose={closeWizard} caller={caller} />
    </section>
  );
}
