import { useLayoutEffect, useMemo, useRef } from 'react';
import { ApprovalCard } from '../approvals/ApprovalCard.tsx';
import { useChatStore } from '../stores/chat-store.ts';
import { displayTurns } from './display-turns.ts';
import { LiveAnswer, LivePrompt, TurnView } from './TurnView.tsx';

// The open conversation's turns, the answer streaming into it, and at the end the approval card when its
// last run waits for the user. Follows the newest text while the reader is at the bottom; scrolling up to
// read stops the following until they scroll back down.
// `invite`: whether a new conversation invites a first message (not while there is no service to send to).
export function Transcript({ invite }: { invite: boolean }) {
  const openId = useChatStore((state) => state.openId);
  const turns = useChatStore((state) => state.turns);
  const loading = useChatStore((state) => state.historyLoading);
  const error = useChatStore((state) => state.historyError);
  const live = useChatStore((state) => (state.live?.conversationId === state.openId ? state.live : null));
  const pending = useChatStore((state) =>
    state.pending !== null && state.pending.conversationId === state.openId ? state.pending : null,
  );
  const shown = useMemo(() => displayTurns(turns), [turns]);
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a newly opened conversation starts at its end
  useLayoutEffect(() => {
    following.current = true;
  }, [openId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow every change of what is shown
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [openId, turns, live, pending]);

  const empty = turns.length === 0 && !live && !loading && !error && (invite || openId !== null);

  return (
    <div
      className="chat-scroll"
      ref={scroller}
      onScroll={(event) => {
        const element = event.currentTarget;
        following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
      }}
    >
      {loading && <p className="muted chat-placeholder">Loading the conversation…</p>}
      {error && (
        <p className="list-error chat-placeholder" role="alert">
          {error}
        </p>
      )}
      {empty && (
        <p className="muted chat-placeholder" data-testid="chat-empty">
          {openId === null
            ? 'Ask anything. Nothing is sent until you press Send, and only to the model you name.'
            : 'This conversation has no stored turns.'}
        </p>
      )}
      <ol className="chat-turns" aria-label="Turns">
        {shown.map((turn, index) => (
          // Turns never reorder: the index is their identity within one conversation.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <TurnView key={index} turn={turn} />
        ))}
        {live && (
          <>
            {live.prompt !== null && <LivePrompt live={{ ...live, prompt: live.prompt }} />}
            <LiveAnswer live={live} />
          </>
        )}
      </ol>
      {pending && <ApprovalCard key={pending.round} pending={pending} />}
    </div>
  );
}
