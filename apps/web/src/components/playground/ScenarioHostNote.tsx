import { type CodedText, type HostDifference, hostDifferences, type Scenario, type ScenarioHost } from '@pagelens/core';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCodedText } from '../../i18n/useCodedText.ts';
import { framesObservable } from '../../model/acl/backend.ts';
import { useAgent } from '../../store/ClientContext.tsx';
import { useTimeline } from '../../store/hooks.ts';
import { selectHostResets } from '../../store/replica-slice.ts';
import { selectSession } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { currentHostOf } from './current-host.ts';
import { usePlayground, usePlaygroundController } from './usePlayground.ts';
import './scenario-host.css';

/** The declared host in words: "Ascend910B2, 1 device". */
function useHostText(): (host: Pick<ScenarioHost, 'profile' | 'devices'>) => string {
  const { t } = useTranslation();
  return (host) => t('scenarioHost.host', { profile: host.profile, count: host.devices });
}

function DifferenceItem({ difference }: { difference: HostDifference }) {
  const { t } = useTranslation();
  const text =
    difference.kind === 'profile'
      ? t('scenarioHost.profile', { actual: difference.actual.join(', '), wanted: difference.wanted })
      : difference.kind === 'devices'
        ? t('scenarioHost.devices', { count: difference.actual, wanted: difference.wanted })
        : t('scenarioHost.used', { count: difference.calls });
  return <li data-kind={difference.kind}>{text}</li>;
}

/**
 * Under the scenario picker: whether the session's host is the one the scenario declares, and if
 * not, what differs with one button that resets the host to it and prepares the scenario (its
 * setup runs and it pauses at the first line). While the scenario's own run is under way its
 * calls are not held against it, nor on a viewer's page: only the profile and the device count are compared then.
 */
export function ScenarioHostNote({ scenario }: { scenario: Scenario }) {
  const { t } = useTranslation();
  const hostText = useHostText();
  const agent = useAgent();
  const controller = usePlaygroundController();
  const status = usePlayground((s) => s.run.status);
  const timeline = useTimeline();
  const historyArriving = useAppStore((s) => s.history !== undefined);
  const hostResets = useAppStore(selectHostResets);
  const connected = useAppStore((s) => s.connection.status === 'connected');
  const session = useAppStore(selectSession);
  const headingId = useId();
  // The host-reset count when the button was pressed: the next reset snapshot is the one it asked for.
  const [pendingFrom, setPendingFrom] = useState<number | undefined>(undefined);
  const [prepared, setPrepared] = useState(false);
  // The agent's refusal of the reset this note asked for, shown until the next try.
  const [refusal, setRefusal] = useState<{ message: string; messageCode?: CodedText } | undefined>(undefined);
  const say = useCodedText();

  useEffect(() => {
    if (pendingFrom === undefined || hostResets <= pendingFrom) return;
    setPendingFrom(undefined);
    controller.reset();
    setPrepared(true);
    void controller.step();
  }, [hostResets, pendingFrom, controller]);

  // A reset the link lost on the way is not waited for: after a reconnect the button works again.
  useEffect(() => {
    if (!connected) setPendingFrom(undefined);
  }, [connected]);

  // Until the history before this page's snapshot is in, the calls since the reset are not known.
  if (!connected || session === undefined || timeline === undefined || historyArriving) return null;
  const simulated = framesObservable(session.host);
  const driver = session.role === 'driver';
  // A viewer runs nothing here, and a run under way made those calls itself: neither is held against the host.
  const underWay = status === 'running' || status === 'paused';
  const wanted = underWay || !driver ? { ...scenario.host, fresh: false } : scenario.host;
  // Real devices have the model and count they have: only what ran on them can be undone.
  const differences = hostDifferences(wanted, currentHostOf(timeline)).filter((d) => simulated || d.kind === 'used');
  const host = hostText(scenario.host);

  if (differences.length === 0) {
    return (
      <p className="pl-host pl-host-match" role="status" data-testid="pl-host-match">
        {prepared && status === 'paused'
          ? t('scenarioHost.prepared')
          : t(wanted.fresh ? 'scenarioHost.matchesFresh' : 'scenarioHost.matches', { host })}
        {!simulated && <span className="pl-host-observed"> {t('scenarioHost.observed', { host })}</span>}
      </p>
    );
  }

  const reset = () => {
    setPrepared(false);
    setRefusal(undefined);
    setPendingFrom(hostResets);
    void agent.reset(simulated ? { profile: scenario.host.profile, devices: scenario.host.devices } : {}).then((outcome) => {
      if (outcome.ok) return;
      // Refused (or the link went): nothing is coming, so the note stops saying it is resetting.
      setPendingFrom(undefined);
      setRefusal(outcome);
    });
  };
  const label = simulated
    ? t('scenarioHost.reset', { profile: scenario.host.profile, count: scenario.host.devices })
    : t('scenarioHost.tearDown');
  return (
    <section className="pl-host pl-host-differs" aria-labelledby={headingId} data-testid="pl-host-differs">
      <p id={headingId}>{t(scenario.host.fresh ? 'scenarioHost.differsFresh' : 'scenarioHost.differs', { host })}</p>
      <ul>
        {differences.map((difference) => (
          <DifferenceItem key={difference.kind} difference={difference} />
        ))}
      </ul>
      {!simulated && <p className="pl-host-observed">{t('scenarioHost.observed', { host })}</p>}
      <div className="pl-host-actions">
        {driver ? (
          <button
            type="button"
            onClick={reset}
            disabled={status === 'running' || pendingFrom !== undefined}
            title={status === 'running' ? t('scenarioHost.busy') : t('scenarioHost.resetHint')}
            data-testid="pl-host-reset"
          >
            {label}
          </button>
        ) : (
          <span className="pl-host-viewer">{t('scenarioHost.driverOnly')}</span>
        )}
        {pendingFrom !== undefined && <span role="status">{t('scenarioHost.resetting')}</span>}
        {refusal !== undefined && (
          <span role="alert" className="pl-host-refused" data-testid="pl-host-refused">
            {t('scenarioHost.refused', { why: say(refusal.messageCode, refusal.message) })}
          </span>
        )}
      </div>
    </section>
  );
}
