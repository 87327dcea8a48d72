import { useEffect } from 'react';
import { installShortcutHandler, useShortcut } from '../hooks/shortcuts.ts';
import { useStoreApi } from '../store/useStoreApi.ts';

/** App-wide keys: help, escape, device, theme, units, addresses. They read the store when pressed. */
export function GlobalShortcuts() {
  const store = useStoreApi();
  useEffect(() => installShortcutHandler(window), []);
  const group = 'shell.help.groups.general';
  useShortcut({ key: '?', label: 'shell.help.keys.help', group }, () => {
    const state = store.getState();
    state.setHelpOpen(!state.helpOpen);
  });
  useShortcut({ key: 'Escape', label: 'shell.help.keys.escape', group }, () => {
    const state = store.getState();
    if (state.helpOpen) state.setHelpOpen(false);
    else state.select(undefined);
  });
  useShortcut({ key: 'd', label: 'shell.help.keys.nextDevice', group }, () => {
    const state = store.getState();
    const count = state.session?.devices.length ?? 1;
    state.setDevice((state.device + 1) % Math.max(1, count));
  });
  useShortcut({ key: 't', label: 'shell.help.keys.theme', group }, () => {
    const state = store.getState();
    state.setPrefs({ theme: state.theme === 'dark' ? 'light' : 'dark' });
  });
  useShortcut({ key: 'u', label: 'shell.help.keys.units', group }, () => {
    const state = store.getState();
    state.setPrefs({ units: state.units === 'binary' ? 'decimal' : 'binary' });
  });
  useShortcut({ key: 'x', label: 'shell.help.keys.addresses', group }, () => {
    const state = store.getState();
    state.setPrefs({ addresses: state.addresses === 'hex' ? 'dec' : 'hex' });
  });
  return null;
}
