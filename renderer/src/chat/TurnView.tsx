import type { ChatBlock } from '../../../shared/contract/index.ts';
import type { LiveTurn, ShownTurn } from '../stores/chat-store.ts';
import { ChatErrorBox } from './ChatErrorBox.tsx';
import { RetryNotice } from './RetryNotice.tsx';
import { ToolCallLine, ToolResultBox } from './ToolActivity.tsx';
import { userBlocks } from './turns.ts';
import { QuotedMail } from './UntrustedBlock.tsx';
import { usageText } from './usage-text.ts';

// SECURITY: model output is untrusted text (it may quote mail): rendered as React text, escaped, with no
// markdown, no links and no images, so nothing in an answer can load or open anything (DESIGN §8).

// Part of the answer could not be read (DESIGN §6): what arrived is kept, and says it is not whole.
function NoticeNote({ message }: { message: string }) {
  return (
    <p className="turn-note notice" data-testid="chat-notice">
      {message}
    </p>
  );
}

function TurnBody({ text, caret = false }: { text: string; caret?: boolean }) {
  return (
    <div className={caret ? 'turn-text streaming' : 'turn-text'} data-testid="chat-turn-text">
      {text}
    </div>
  );
}

// A turn's blocks in order. `streaming`: the last text block is still growing (it shows the caret).
function Blocks({ blocks, streaming = false }: { blocks: readonly ChatBlock[]; streaming?: boolean }) {
  return blocks.map((block, index) => {
    const key = `${index}:${block.kind}`; // blocks only ever append
    switch (block.kind) {
      case 'text':
        return block.text === '' ? null : (
          <TurnBody key={key} text={block.text} caret={streaming && index === blocks.length - 1} />
        );
      case 'quote':
        return <QuotedMail key={key} parts={block.parts} />;
      case 'tool_call':
        return <ToolCallLine key={key} name={block.name} args={block.args} />;
      case 'tool_result':
        return <ToolResultBox key={key} result={block} />;
      default:
        return null;
    }
  });
}

// A turn that has ended: read back from storage, or finished in this session (then with how it ended).
export function TurnView({ turn }: { turn: ShownTurn }) {
  const assistant = turn.role === 'assistant';
  // A turn stored before turns had blocks still has its text.
  const blocks: readonly ChatBlock[] =
    turn.blocks.length > 0 || turn.text === '' ? turn.blocks : [{ kind: 'text', text: turn.text }];
  return (
    <li
      className={`chat-turn ${turn.role}`}
      data-testid="chat-turn"
      data-role={turn.role}
      data-outcome={turn.outcome ?? 'stored'}
    >
      <div className="turn-who">{assistant ? 'Model' : 'You'}</div>
      <Blocks blocks={blocks} />
      {assistant && blocks.length === 0 && turn.outcome === 'done' && (
        <p className="muted turn-note">The model sent no text.</p>
      )}
      {turn.outcome === 'stopped' && (
        <p className="turn-note stopped" data-testid="chat-stopped">
          {turn.note ?? 'Stopped. What arrived is kept.'}
        </p>
      )}
      {turn.notice && <NoticeNote message={turn.notice.message} />}
      {turn.error && <ChatErrorBox error={turn.error} />}
      {turn.usage && (
        <p className="turn-usage" data-testid="chat-usage">
          {usageText(turn.usage)}
        </p>
      )}
    </li>
  );
}

// What the user just sent, while its answer streams: their words, after the mail they quoted once Skimmer
// has said how the model sees it (`chat_context`).
export function LivePrompt({ live }: { live: LiveTurn & { prompt: string } }) {
  return (
    <TurnView
      turn={{ role: 'user', text: live.prompt, blocks: userBlocks(live.prompt, live.context), usage: null }}
    />
  );
}

// The answer while it streams: what arrived so far, the retry countdown, and its usage once reported.
export function LiveAnswer({ live }: { live: LiveTurn }) {
  const empty = live.blocks.every((block) => block.kind === 'text' && block.text === '');
  return (
    <li
      className="chat-turn assistant live"
      data-testid="chat-turn"
      data-role="assistant"
      data-outcome="streaming"
      aria-busy="true"
    >
      <div className="turn-who">Model</div>
      <Blocks blocks={live.blocks} streaming={live.status !== 'stopping'} />
      {live.retry && <RetryNotice key={live.retry.until} until={live.retry.until} code={live.retry.code} />}
      {empty && !live.retry && (
        <p className="muted turn-note" data-testid="chat-waiting">
          {live.status === 'stopping'
            ? 'Stopping…'
            : live.prompt === null
              ? 'Carrying out your answer…'
              : 'Waiting for the model…'}
        </p>
      )}
      {live.notice && <NoticeNote message={live.notice.message} />}
      {!empty && live.status === 'stopping' && <p className="muted turn-note">Stopping…</p>}
      {live.usage && (
        <p className="turn-usage" data-testid="chat-usage">
          {usageText(live.usage)}
        </p>
      )}
    </li>
  );
}
