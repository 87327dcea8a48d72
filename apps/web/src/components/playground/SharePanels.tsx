import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlaygroundDoc } from '../../model/playground/playground-doc.ts';
import { decodeShare, encodeShare, shareUrl } from '../../model/playground/share-link.ts';
import { useProblemText } from './SavePanels.tsx';

/** The current scenario as a link (code, inputs and setup compressed into the hash), with Copy. */
export function SharePanel({ doc, onClose }: { doc: PlaygroundDoc; onClose: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | undefined>(undefined);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    let live = true;
    void encodeShare(doc).then((fragment) => {
      if (live) setUrl(shareUrl(window.location.href, fragment));
    });
    return () => {
      live = false;
    };
  }, [doc]);
  const copyLink = async () => {
    if (url === undefined) return;
    field.current?.select();
    try {
      await navigator.clipboard.writeText(url);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  return (
    <section className="pl-drawer pl-share" aria-label={t('playground.share.title')} data-testid="pl-share-panel">
      <h3 className="section-title">{t('playground.share.title')}</h3>
      <p className="muted pl-help">{t('playground.share.help')}</p>
      <div className="pl-row">
        <label className="pl-grow">
          <span className="visually-hidden">{t('playground.share.link')}</span>
          <input
            ref={field}
            className="mono pl-grow"
            readOnly
            value={url ?? ''}
            onFocus={(event) => event.currentTarget.select()}
            data-testid="pl-share-url"
          />
        </label>
        <button type="button" onClick={() => void copyLink()} disabled={url === undefined}>
          {t('playground.share.copy')}
        </button>
        <button type="button" onClick={onClose}>
          {t('playground.share.close')}
        </button>
      </div>
      {copy === 'copied' && (
        <p className="pl-ok" role="status">
          {t('playground.share.copied')}
        </p>
      )}
      {copy === 'failed' && (
        <p className="pl-error" role="alert">
          {t('playground.share.copyFailed')}
        </p>
      )}
    </section>
  );
}

interface OpenLinkPanelProps {
  readonly canOpen: boolean;
  readonly onClose: () => void;
  readonly onOpen: (doc: PlaygroundDoc) => void;
}

/** Paste a shared link (or its `#playground=…` part) to open it here, without leaving the page. */
export function OpenLinkPanel({ canOpen, onClose, onOpen }: OpenLinkPanelProps) {
  const { t } = useTranslation();
  const problemText = useProblemText();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async () => {
    const decoded = await decodeShare(text);
    if (!decoded.ok) {
      setError(t('playground.share.failed', { reason: problemText(decoded.problem) }));
      return;
    }
    onOpen(decoded.value);
  };
  return (
    <form
      className="pl-drawer"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid="pl-open-panel"
    >
      <div className="pl-row">
        <label className="pl-grow">
          {t('playground.share.openLabel')}{' '}
          <input
            className="mono pl-grow"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            data-testid="pl-open-input"
          />
        </label>
        <button type="submit" disabled={!canOpen || text.trim() === ''} title={canOpen ? undefined : t('playground.save.busy')}>
          {t('playground.share.openConfirm')}
        </button>
        <button type="button" onClick={onClose}>
          {t('playground.share.close')}
        </button>
      </div>
      {error !== undefined && (
        <p className="pl-error" role="alert" data-testid="pl-open-error">
          {error}
        </p>
      )}
    </form>
  );
}
