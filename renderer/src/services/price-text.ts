// The price field of a service: what the user typed, read as US dollars per million input tokens.

/** '' → no price; a plain non-negative number up to 10,000 → that; anything else → undefined. */
export function parsePrice(text: string): number | null | undefined {
  const t = text.trim().replace(/^\$/, '');
  if (t === '') return null;
  if (!/^\d+(\.\d+)?$/.test(t)) return undefined;
  const n = Number(t);
  return n <= 10_000 ? n : undefined;
}
