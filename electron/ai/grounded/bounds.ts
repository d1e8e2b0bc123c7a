// The bounds of a grounded request (DESIGN §10), checked before any network. Nothing is cut silently: a
// source, a question or a request over its bound is refused with a sentence naming the bound. Pure.
export const groundedBounds = {
  maxSources: 8,
  sourceBytes: 16 * 1024,
  allSourcesBytes: 32 * 1024,
  questionBytes: 2 * 1024,
  requestBytes: 96 * 1024,
  responseBytes: 64 * 1024,
  answerBytes: 16 * 1024,
  totalMs: 45_000,
  connectMs: 5_000,
} as const;

export type Source = { id: string; title: string; text: string; location?: string };

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const kib = (n: number) => `${n / 1024} KiB`;
// Short ids the model can repeat exactly and a reader can click: letters, digits, `_` and `-`.
const sourceId = /^[A-Za-z0-9_-]{1,16}$/;

/** Null when the sources and question are within the bounds, else the sentence that names the bound. */
export function checkBounds(sources: readonly Source[], question: string | undefined): string | null {
  const b = groundedBounds;
  if (sources.length < 1 || sources.length > b.maxSources) {
    return `A grounded answer takes 1 to ${b.maxSources} sources; ${sources.length} were given.`;
  }
  const ids = new Set<string>();
  for (const s of sources) {
    if (!sourceId.test(s.id))
      return `The source id "${s.id.slice(0, 20)}" is not 1–16 letters, digits, _ or -.`;
    if (ids.has(s.id)) return `Two sources have the id "${s.id}".`;
    ids.add(s.id);
    if (bytes(s.text) > b.sourceBytes) {
      return `The source "${s.id}" is over the ${kib(b.sourceBytes)} a source may hold.`;
    }
  }
  const total = sources.reduce((n, s) => n + bytes(s.text), 0);
  if (total > b.allSourcesBytes)
    return `The sources are over the ${kib(b.allSourcesBytes)} they may hold together.`;
  if (question !== undefined && bytes(question) > b.questionBytes) {
    return `The question is over the ${kib(b.questionBytes)} a question may hold.`;
  }
  return null;
}

/** Null when the encoded request is within its bound. */
export function checkRequestSize(body: unknown): string | null {
  return bytes(JSON.stringify(body)) > groundedBounds.requestBytes
    ? `The request would be over the ${kib(groundedBounds.requestBytes)} a grounded request may hold.`
    : null;
}
