// The sources of a question over mail and documents (DESIGN §10, issue 7: "this thread + these documents").
// Both share one request's bounds (8 sources, 32 KiB), so Skimmer chooses, and never cuts a source short:
// the documents are promised half (their best-matching chunks, in turns, as pickChunks takes them); the
// messages come next, the ones holding most of the question's words first (the later one on a tie), each
// whole — a long message as all of its pieces or not at all; the documents then take whatever room the
// messages left. The messages that did not fit are returned so the answer can say what was left out. Pure.
import { type Chunk, pickChunks } from '../../documents/documents.ts';
import { groundedBounds, type Source } from './bounds.ts';
import { type MessageSource, threadSources } from './long-thread.ts';

export type Chosen = { sources: Source[]; leftOut: MessageSource[] };

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const wordsOf = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
// A little under the bound, as for the parts of a long thread: the id, title and location lines go in too.
const budget = groundedBounds.allSourcesBytes - 1024;

const chunkSource = (c: Chunk): Source => ({
  id: c.id,
  title: c.title,
  text: c.text,
  location: c.location,
});

/** Indexes of the messages, those holding most of the question's words first, the later one on a tie. */
export function rankMessages(messages: readonly MessageSource[], question: string): number[] {
  const asked = wordsOf(question);
  const score = messages.map((m) => [...wordsOf(m.text)].filter((w) => asked.has(w)).length);
  return messages.map((_m, i) => i).sort((a, b) => (score[b] as number) - (score[a] as number) || b - a);
}

export function chooseSources(
  messages: readonly MessageSource[],
  perDocument: readonly Chunk[][],
  question: string,
): Chosen {
  const max = groundedBounds.maxSources;
  const promised = pickChunks(perDocument, max / 2, budget / 2);
  let count = promised.length;
  let size = promised.reduce((n, c) => n + bytes(c.text), 0);
  const taken = new Map<number, Source[]>();
  const leftOut: MessageSource[] = [];
  for (const i of rankMessages(messages, question)) {
    const message = messages[i] as MessageSource;
    const pieces = threadSources([message]);
    const n = pieces.reduce((sum, p) => sum + bytes(p.text), 0);
    if (count + pieces.length <= max && size + n <= budget) {
      taken.set(i, pieces);
      count += pieces.length;
      size += n;
    } else leftOut.push(message);
  }
  const mail = [...taken.entries()].sort(([a], [b]) => a - b).flatMap(([, pieces]) => pieces);
  const mailBytes = mail.reduce((n, s) => n + bytes(s.text), 0);
  const chunks = pickChunks(perDocument, max - mail.length, budget - mailBytes);
  return {
    sources: [...mail, ...chunks.map(chunkSource)],
    leftOut: messages.filter((m) => leftOut.includes(m)),
  };
}
