// Summaries of threads over the bounds (DESIGN §10, issue 7): the messages are split into parts that each fit
// the bounds (a message over 16 KiB becomes several sources, `m12`, `m12-2`, …), each part is summarised
// with its citations checked, and the part summaries are combined into one summary that must cite the
// original messages — checked again, against the messages the parts cited. Every citation of the result
// names a message of the thread.
import { AiFailure } from '../protocol/errors.ts';
import { groundedBounds, type Source } from './bounds.ts';
import { type GroundedAnswer, type GroundedConnection, groundedAnswer } from './grounded.ts';

export type MessageSource = { id: string; title: string; text: string };

/** Cuts text into pieces of at most `max` UTF-8 bytes, at line ends where it can, never inside a character. */
export function cutText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (Buffer.byteLength(rest, 'utf8') > max) {
    let end = Math.min(rest.length, max);
    while (Buffer.byteLength(rest.slice(0, end), 'utf8') > max) end -= 1;
    if (end > 0 && /[\uD800-\uDBFF]/.test(rest.charAt(end - 1))) end -= 1;
    const newline = rest.lastIndexOf('\n', end);
    if (newline > end / 2) end = newline + 1;
    pieces.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  pieces.push(rest);
  return pieces;
}

/** The sources of a thread, a long message cut into pieces whose ids keep the message's id. */
export function threadSources(messages: readonly MessageSource[]): Source[] {
  // A little under the bound: the id, title and location lines go into the block too.
  const max = groundedBounds.sourceBytes - 512;
  return messages.flatMap((m) =>
    cutText(m.text, max).map((text, i) => ({
      id: i === 0 ? m.id : `${m.id}-${i + 1}`,
      title: m.title,
      text,
    })),
  );
}

/** Groups sources in order into parts within the bounds (8 sources, 32 KiB together). */
export function partsOf(sources: readonly Source[]): Source[][] {
  const budget = groundedBounds.allSourcesBytes - 1024;
  const parts: Source[][] = [];
  let current: Source[] = [];
  let size = 0;
  for (const s of sources) {
    const n = Buffer.byteLength(s.text, 'utf8');
    if (current.length > 0 && (current.length === groundedBounds.maxSources || size + n > budget)) {
      parts.push(current);
      current = [];
      size = 0;
    }
    current.push(s);
    size += n;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

const messageOf = (sourceId: string) => sourceId.replace(/-\d+$/, '');

export async function summarizeThread(
  connection: GroundedConnection,
  model: string,
  messages: readonly MessageSource[],
  opts: { signal?: AbortSignal; fetch?: typeof fetch; question?: string } = {},
): Promise<GroundedAnswer & { parts: number }> {
  const call = {
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  };
  const parts = partsOf(threadSources(messages));
  const titles = new Map(messages.map((m) => [m.id, m.title]));
  const toMessages = (a: GroundedAnswer): GroundedAnswer => {
    const citations = [...new Set(a.citations.map(messageOf))];
    return { ...a, citations, sources: citations.map((id) => ({ id, title: titles.get(id) ?? id })) };
  };
  if (parts.length === 1) {
    const one = await groundedAnswer(
      connection,
      model,
      { sources: parts[0] as Source[], ...(opts.question ? { question: opts.question } : {}) },
      call,
    );
    return { ...toMessages(one), parts: 1 };
  }
  // Each part on its own; a piece of a long message is cited as its message.
  const summaries: GroundedAnswer[] = [];
  for (const part of parts) {
    summaries.push(toMessages(await groundedAnswer(connection, model, { sources: part }, call)));
  }
  // The combined summary reads the part summaries, which carry the messages' ids inline; it may cite only
  // messages some part cited, and must cite them the same way.
  const cited = [...new Set(summaries.flatMap((s) => s.citations))];
  if (cited.length === 0)
    throw new AiFailure('bad_answer', { providerDetail: 'No part of the thread was cited.' });
  const partSources: Source[] = summaries.map((s, i) => ({
    id: `part${i + 1}`,
    title: `Summary of part ${i + 1} of ${summaries.length}`,
    text: s.answer.replace(/\[([A-Za-z0-9_-]+)\]/g, (_m, id: string) => `[${messageOf(id)}]`),
  }));
  const question =
    (opts.question ? `${opts.question}\n` : '') +
    `Combine these part summaries into one. Keep their message citations (${cited.map((c) => `[${c}]`).join(' ')}) ` +
    'and cite only those; do not cite the parts themselves.';
  const combined = await groundedAnswer(
    connection,
    model,
    { sources: partSources, question },
    { ...call, allowedIds: cited },
  );
  return { ...toMessages(combined), parts: parts.length };
}
