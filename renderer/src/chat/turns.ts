// Turns as the chat pane holds them: the stored ones (`chat:history`, with how each ended) and the one whose
// answer is streaming. The streaming answer is kept as the same blocks a stored turn has (shared/contract/index.ts
// `ChatBlock`), so a finished answer joins the transcript as it will read after a reload. Pure; tested in
// turns.test.ts.
import type { ChatBlock, ChatTurn, StreamEvent, UntrustedPart } from '../../../shared/contract/index.ts';

type Usage = NonNullable<ChatTurn['usage']>;
// Part of the answer could not be read, yet it went on (DESIGN §6): Skimmer's code and sentence.
type Notice = NonNullable<ChatTurn['notice']>;
export type ChatFailure = { message: string; detail?: string };
// How a turn ended: from its live events in this session, or from `ended` when read back with `chat:history`
// (a stored turn without `ended` finished normally, or waits for approval: then `chat:history` says `pending`).
export type TurnOutcome = 'done' | 'stopped' | 'failed' | 'interrupted';
export type ShownTurn = Omit<ChatTurn, 'ended'> & {
  outcome?: TurnOutcome;
  note?: string;
  error?: ChatFailure;
};

export function shownTurn({ ended, ...turn }: ChatTurn): ShownTurn {
  if (!ended) return turn;
  return ended.outcome === 'stopped'
    ? { ...turn, outcome: 'stopped' }
    : { ...turn, outcome: 'failed', error: { message: ended.message } };
}

// starting: `chat:send` / `chat:answer` has not answered yet; streaming: events arrive; stopping: Stop was pressed.
type LiveStatus = 'starting' | 'streaming' | 'stopping';
export type LiveTurn = {
  id: number;
  conversationId: number | null; // null until `chat_start` names the conversation
  prompt: string | null; // null: the run resumes after the user answered an approval card
  context: UntrustedPart[]; // quoted mail as the model sees it (`chat_context`)
  status: LiveStatus;
  streamId: string | null;
  blocks: ChatBlock[];
  usage: Usage | null;
  retry: { code: string; seconds: number; until: number } | null; // `until` in epoch ms, for the countdown
  notice: Notice | null; // the first `chat_notice`: one mark says the answer is not whole
};

export function newLive(id: number, conversationId: number | null, prompt: string | null): LiveTurn {
  return {
    id,
    conversationId,
    prompt,
    context: [],
    status: 'starting',
    streamId: null,
    blocks: [],
    usage: null,
    retry: null,
    notice: null,
  };
}

// What an event in the middle of a stream adds to the answer; the start and the final events are the
// store's (they change more than the answer). Any other event leaves it as it was.
export function withEvent(live: LiveTurn, event: StreamEvent, now: number): LiveTurn {
  switch (event.type) {
    case 'chat_text':
      return { ...live, blocks: withText(live.blocks, event.text), retry: null };
    case 'chat_context':
      return { ...live, context: event.parts };
    case 'chat_tool_call': {
      const call: ChatBlock = { kind: 'tool_call', id: event.id, name: event.name, args: event.args };
      return { ...live, blocks: [...live.blocks, call], retry: null };
    }
    case 'chat_tool_result': {
      const { type: _, ...result } = event;
      return { ...live, blocks: [...live.blocks, { kind: 'tool_result', ...result }] };
    }
    case 'chat_retry':
      return {
        ...live,
        retry: { code: event.code, seconds: event.seconds, until: now + event.seconds * 1000 },
      };
    case 'chat_usage':
      return { ...live, usage: { inputTokens: event.inputTokens, outputTokens: event.outputTokens } };
    case 'chat_notice':
      return live.notice ? live : { ...live, notice: { code: event.code, message: event.message } };
    default:
      return live;
  }
}

// The turns a finished run adds to the transcript: the user's (unless it answered a card) and the answer.
export function endedTurns(
  live: LiveTurn,
  outcome: TurnOutcome,
  extra: Pick<ShownTurn, 'note' | 'error'> = {},
): ShownTurn[] {
  const answer: ShownTurn = {
    role: 'assistant',
    text: textOf(live.blocks),
    blocks: live.blocks,
    usage: live.usage,
    outcome,
    ...(live.notice ? { notice: live.notice } : {}),
    ...extra,
  };
  if (live.prompt === null) return [answer];
  const asked: ShownTurn = {
    role: 'user',
    text: live.prompt,
    blocks: userBlocks(live.prompt, live.context),
    usage: null,
  };
  return [asked, answer];
}

// Text continues the text block it follows; after a tool call or result it starts a new one.
export function withText(blocks: readonly ChatBlock[], text: string): ChatBlock[] {
  const last = blocks.at(-1);
  if (last?.kind === 'text') return [...blocks.slice(0, -1), { kind: 'text', text: last.text + text }];
  return [...blocks, { kind: 'text', text }];
}

export const textOf = (blocks: readonly ChatBlock[]): string =>
  blocks.flatMap((b) => (b.kind === 'text' ? [b.text] : [])).join('');

// What the user sent, as its stored turn reads: quoted mail first (context, not their words), then the text.
export function userBlocks(prompt: string, quoted: readonly UntrustedPart[]): ChatBlock[] {
  const text: ChatBlock = { kind: 'text', text: prompt };
  return quoted.length > 0 ? [{ kind: 'quote', parts: [...quoted] }, text] : [text];
}
