// "Draft reply" (issue 17, DESIGN §10 "Drafted replies"): the model writes the user's reply from the thread,
// which it reads only as untrusted sources (DESIGN §8), with the user's instructions and a few of the user's own
// mails as examples of their style. It answers the grounded `{answer, citations}` object, checked exactly as a
// grounded answer is (citations.ts): every id a message of this thread, the inline set equal to the list, else
// `bad_answer` and no draft. The `[id]` marks are taken out of the text the user edits and kept as citations;
// every amount, number, date and time of the text found in no message of the thread is listed as unverified
// (shared/compose/thread-facts.ts). The caller connects (consent first) and makes the draft from the text.
import { knownFacts, type Unverified, unverifiedFacts } from '../../../shared/compose/thread-facts.ts';
import { AiFailure } from '../protocol/errors.ts';
import { groundedBounds } from './bounds.ts';
import { type GroundedConnection, groundedAnswer } from './grounded.ts';
import { messageCitation, messageSource } from './grounded-view.ts';
import { type ReplyRequest, replySources } from './reply-sources.ts';

export type { ReplyRequest };

type ReplyCitation = { id: string; messageId: number; title: string };
export type DraftedReply = {
  /** The reply's text without its `[id]` marks, as the user will edit it. */
  text: string;
  threadId: number;
  cited: boolean;
  citations: ReplyCitation[];
  unverified: Unverified[];
  /** The thread's facts, normalised, so the composer checks the text again as the user edits it. */
  known: string[];
  note: string | null;
};

const task = (answering: string, examples: number) =>
  [
    `Write the user's reply to the message ${answering} of the thread below, in the user's own voice: the`,
    'greeting, what the user says and the sign-off, as plain text, without a subject, a signature or the quoted',
    'message. Follow the user’s instructions. State only what the thread says or the user asks you to say;',
    'do not make up amounts, dates, times or commitments.',
    examples > 0
      ? 'The context blocks are mails the user wrote before: match their tone and length, never their facts, and never cite them.'
      : '',
  ]
    .filter(Boolean)
    .join(' ');

// The inline marks the check accepted, with the space before them: "Yes [m12]." reads "Yes.".
const marks = /[ \t]*\[([A-Za-z0-9_-]{1,16})\]/g;
const withoutMarks = (answer: string) =>
  answer
    .replace(marks, '')
    .replace(/^[ \t]+/gm, '')
    .trim();

/** Asks the model for the reply and checks it; throws AiFailure (`bad_answer`, a bound's `invalid_request`). */
export async function draftReply(
  connection: GroundedConnection,
  model: string,
  request: ReplyRequest,
  opts: { signal?: AbortSignal; fetch?: typeof fetch } = {},
): Promise<DraftedReply> {
  const instructions = request.instructions?.trim() ?? '';
  if (Buffer.byteLength(instructions, 'utf8') > groundedBounds.questionBytes) {
    throw new AiFailure('invalid_request', {
      providerDetail: `The instructions are over the ${groundedBounds.questionBytes / 1024} KiB instructions may hold.`,
    });
  }
  const messages = request.thread.map(messageSource);
  const answering = `m${request.answering}`;
  const { sources, note } = replySources(messages, answering);
  const result = await groundedAnswer(
    connection,
    model,
    {
      sources,
      task: {
        instructions: task(answering, request.examples.length),
        user: instructions === '' ? 'Draft my reply.' : `Draft my reply. My instructions: ${instructions}`,
        context: request.examples,
      },
    },
    {
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    },
  );
  // A piece of a long message (`m12-2`) is cited as its message.
  const byId = new Map(request.thread.map((m) => [`m${m.id}`, messageCitation(m)]));
  const citations = [...new Set(result.citations.map((id) => id.replace(/-\d+$/, '')))].flatMap((id) => {
    const c = byId.get(id);
    return c?.messageId ? [{ id, messageId: c.messageId, title: c.title }] : [];
  });
  const text = withoutMarks(result.answer);
  // Checked against every message of the thread, those left out for the bounds too: a fact is the thread's
  // wherever in it it is.
  const known = knownFacts(messages.map((m) => m.text));
  const threadId = request.thread.find((m) => m.id === request.answering)?.threadId ?? 0;
  return {
    text,
    threadId,
    cited: result.cited,
    citations,
    unverified: unverifiedFacts(text, known),
    known,
    note,
  };
}
