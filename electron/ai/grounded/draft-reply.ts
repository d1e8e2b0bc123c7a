// "Draft reply" (issue 17, DESIGN §10 "Drafted replies"): the model writes the user's reply from the thread,
// which it reads only as untrusted sources (DESIGN §8), with the user's instructions and a few of the user's own
// mails as examples of their style. It answers the grounded `{answer, citations}` object, checked exactly as a
// grounded answer is (citations.ts): every id a message of this thread, the inline set equal to the list, else
// `bad_answer` and no draft. The `[id]` marks are taken out of the text the user edits and kept as citations;
// every amount, number, date, time and code of a sentence that none of the messages that sentence cites holds is
// listed as unverified (shared/compose/thread-facts.ts). The caller connects (consent first) and makes the draft
// from the text.
import { knownFacts, missingFacts, notCited, type Unverified } from '../../../shared/compose/thread-facts.ts';
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
  /**
   * The facts of the messages cited, normalised, so the composer checks the text again as the user edits it;
   * without those a sentence was found not to hold (cited by another sentence only, or found in no message).
   */
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

// A sentence ends at a line break, or at . ! ? (with the marks right after it, which cite it) before a capital
// letter: `3 p.m. today` and `Dec. 14` go on, `Mr. Smith` too.
const sentenceEnd = /[.!?…]+["”')]*((?:[ \t]*\[[A-Za-z0-9_-]{1,16}\])*)(?=[ \t]+["“'(]?\p{Lu})|\n/gu;
const abbreviation = /\b(?:Mr|Mrs|Ms|Dr|Prof|St|Mt|vs|etc|e\.g|i\.e|No|Inc|Ltd|Co|Jr|Sr)\.$/i;

/** The answer's sentences, each with the ids its marks cite (a piece `m12-2` as its message). */
function sentencesOf(answer: string): { text: string; cites: string[] }[] {
  const out: { text: string; cites: string[] }[] = [];
  let start = 0;
  const take = (end: number) => {
    const part = answer.slice(start, end);
    start = end;
    const cites = [...part.matchAll(marks)].map((m) => (m[1] as string).replace(/-\d+$/, ''));
    if (part.trim() !== '') out.push({ text: part.replace(marks, ''), cites });
  };
  for (const m of answer.matchAll(sentenceEnd)) {
    const end = m.index + m[0].length;
    if (m[0] !== '\n' && abbreviation.test(answer.slice(start, m.index + 1).replace(/\s+$/, ''))) continue;
    take(end);
  }
  take(answer.length);
  return out;
}

/**
 * The facts not found, once each in the order written, and what the composer checks against: a fact counts as
 * found only in a message its own sentence cites. The keys the composer gets are the cited messages', without
 * those of the facts not found, so the composer flags them too though another sentence cites where they are.
 */
function checkFacts(answer: string, textOf: ReadonlyMap<string, string>) {
  const keysOf = new Map<string, string[]>();
  const known = (ids: readonly string[]) =>
    ids.flatMap((id) => {
      const text = textOf.get(id);
      if (text === undefined) return [];
      const keys = keysOf.get(id) ?? knownFacts([text]);
      keysOf.set(id, keys);
      return keys;
    });
  const unverified: Unverified[] = [];
  const seen = new Set<string>();
  const unfound = new Set<string>();
  const cited = new Set<string>();
  for (const sentence of sentencesOf(answer)) {
    for (const id of sentence.cites) cited.add(id);
    for (const { fact, needs } of missingFacts(sentence.text, known(sentence.cites))) {
      for (const key of needs) unfound.add(key);
      if (seen.has(fact.text)) continue;
      seen.add(fact.text);
      unverified.push({ text: fact.text, reason: notCited });
    }
  }
  return { unverified, known: [...new Set(known([...cited]))].filter((k) => !unfound.has(k)).sort() };
}

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
  // SECURITY: checked against the messages each sentence cites, never the whole thread: a hostile message in the
  // thread would otherwise vouch for its own IBAN or amount in a sentence that cites a genuine one.
  const { unverified, known } = checkFacts(result.answer, new Map(messages.map((m) => [m.id, m.text])));
  const threadId = request.thread.find((m) => m.id === request.answering)?.threadId ?? 0;
  return { text, threadId, cited: result.cited, citations, unverified, known, note };
}
