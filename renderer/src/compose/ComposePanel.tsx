import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { type ComposeKind, useComposeStore } from '../stores/compose-store.ts';
import '../styles/composer.css';
import { AddressChips } from './AddressChips.tsx';
import { AttachButton, ComposeAttachments } from './ComposeAttachments.tsx';
import { DraftWithAi, ReplyCitations, UnverifiedFlags } from './DraftAssist.tsx';
import { FromSelect } from './FromSelect.tsx';

const titles: Record<ComposeKind, string> = {
  new: 'New message',
  reply: 'Reply',
  all: 'Reply all',
  forward: 'Forward',
};

const saveLines = { idle: '', pending: '', saving: 'Saving…', saved: 'Saved' } as const;

// The composer (DESIGN §12, "The composer"), docked over the reader like Gmail's. Its keys are its own while it
// has the focus (keyboard/shortcuts.ts stands aside): Ctrl/Cmd+Enter sends, Esc saves and closes.
export function ComposePanel() {
  const open = useComposeStore((state) => state.open);
  const opening = useComposeStore((state) => state.opening);
  const error = useComposeStore((state) => state.error);
  const kind = useComposeStore((state) => state.kind);
  const close = useComposeStore((state) => state.close);
  const send = useComposeStore((state) => state.send);
  const cancelDiscard = useComposeStore((state) => state.cancelDiscard);
  if (!open && !opening && error === null) return null;

  function keyDown(event: KeyboardEvent<HTMLElement>): void {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (useComposeStore.getState().confirmDiscard) cancelDiscard();
      else void close();
    }
  }

  return (
    <section
      className="compose-panel"
      data-composer=""
      data-testid="composer"
      aria-label={titles[kind]}
      onKeyDown={keyDown}
    >
      <header className="compose-head">
        <h2>{titles[kind]}</h2>
        <button
          type="button"
          className="ghost small"
          data-testid="composer-close"
          title="Save and close (Esc)"
          aria-label="Save and close"
          onClick={() => void close()}
        >
          ×
        </button>
      </header>
      {open ? (
        <ComposeForm />
      ) : (
        <p
          className={error ? 'warning compose-note' : 'muted compose-note'}
          role={error ? 'alert' : undefined}
        >
          {error ?? 'Opening…'}
        </p>
      )}
    </section>
  );
}

function ComposeForm() {
  const draftId = useComposeStore((state) => state.draftId);
  const kind = useComposeStore((state) => state.kind);
  const subject = useComposeStore((state) => state.form?.subject ?? '');
  const body = useComposeStore((state) => state.form?.body ?? '');
  const toEmpty = useComposeStore((state) => (state.form?.to.length ?? 0) === 0);
  const showCc = useComposeStore((state) => state.showCc);
  const showBcc = useComposeStore((state) => state.showBcc);
  const focusTick = useComposeStore((state) => state.focusTick);
  const edit = useComposeStore((state) => state.edit);
  const showField = useComposeStore((state) => state.showField);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const [readyTick, setReadyTick] = useState(0);

  // Where writing starts: the To of a new mail or forward still without one, else the top of the body, above
  // the signature and the quote.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a newly opened draft moves the cursor
  useEffect(() => {
    if ((kind === 'new' || kind === 'forward') && toEmpty) {
      document.getElementById('composer-to-input')?.focus();
    } else if (bodyRef.current) {
      bodyRef.current.focus();
      bodyRef.current.setSelectionRange(0, 0);
      bodyRef.current.scrollTop = 0;
    }
    setReadyTick(focusTick);
  }, [focusTick]);

  return (
    <div className="compose-form" data-draft-id={draftId ?? undefined} data-ready={readyTick === focusTick}>
      <FromSelect />
      <div className="compose-to-line">
        <AddressChips field="to" />
        <span className="compose-more">
          {!showCc && (
            <button
              type="button"
              className="link"
              data-testid="composer-show-cc"
              onClick={() => showField('cc')}
            >
              Cc
            </button>
          )}
          {!showBcc && (
            <button
              type="button"
              className="link"
              data-testid="composer-show-bcc"
              onClick={() => showField('bcc')}
            >
              Bcc
            </button>
          )}
        </span>
      </div>
      {showCc && <AddressChips field="cc" />}
      {showBcc && <AddressChips field="bcc" />}
      <div className="compose-row">
        <label className="compose-label" htmlFor="composer-subject">
          Subject
        </label>
        <input
          id="composer-subject"
          data-testid="composer-subject"
          className="compose-subject"
          value={subject}
          onChange={(event) => edit({ subject: event.target.value })}
        />
      </div>
      <DraftWithAi />
      <textarea
        ref={bodyRef}
        className="compose-body"
        data-testid="composer-body"
        aria-label="Message"
        value={body}
        onChange={(event) => edit({ body: event.target.value })}
      />
      <ReplyCitations />
      <UnverifiedFlags />
      <ComposeAttachments />
      <ComposeFooter />
    </div>
  );
}

function ComposeFooter() {
  const busy = useComposeStore((state) => state.busy);
  const error = useComposeStore((state) => state.error);
  const saveState = useComposeStore((state) => state.saveState);
  const saveError = useComposeStore((state) => state.saveError);
  const confirmDiscard = useComposeStore((state) => state.confirmDiscard);
  const send = useComposeStore((state) => state.send);
  const close = useComposeStore((state) => state.close);
  const askDiscard = useComposeStore((state) => state.askDiscard);
  const cancelDiscard = useComposeStore((state) => state.cancelDiscard);
  const discard = useComposeStore((state) => state.discard);

  return (
    <>
      {error && (
        <p className="warning compose-note" role="alert" data-testid="composer-error">
          {error}
        </p>
      )}
      {confirmDiscard ? (
        <div className="compose-actions" role="alert" data-testid="composer-discard-ask">
          <span className="compose-state">Discard this draft? It cannot be brought back.</span>
          <button type="button" className="ghost" onClick={cancelDiscard} disabled={busy !== null}>
            Keep it
          </button>
          <button
            type="button"
            className="danger"
            data-testid="composer-discard-confirm"
            disabled={busy !== null}
            onClick={() => void discard()}
          >
            Discard
          </button>
        </div>
      ) : (
        <div className="compose-actions">
          <button
            type="button"
            className="primary"
            data-testid="composer-send"
            title="Send (Ctrl+Enter)"
            disabled={busy !== null}
            onClick={() => void send()}
          >
            {busy === 'sending' ? 'Sending…' : 'Send'}
          </button>
          <AttachButton />
          <span
            className={saveState === 'failed' ? 'compose-state warning' : 'compose-state muted'}
            data-testid="composer-save-state"
            aria-live="polite"
          >
            {saveState === 'failed' ? `Not saved: ${saveError ?? ''}` : saveLines[saveState]}
          </span>
          <button
            type="button"
            className="ghost"
            data-testid="composer-save"
            title="Save and close (Esc)"
            disabled={busy !== null}
            onClick={() => void close()}
          >
            Save
          </button>
          <button
            type="button"
            className="ghost"
            data-testid="composer-discard"
            disabled={busy !== null}
            onClick={askDiscard}
          >
            Discard
          </button>
        </div>
      )}
    </>
  );
}
