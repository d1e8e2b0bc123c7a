// The attachments read lately, kept whole within a bound (issue 29 §1), so that a page reading a large file a
// range at a time reads the message from its file or its server once, not once per range. Least recently used
// goes first; one larger than the whole bound is not kept.
const partCacheBytes = 64 * 1024 * 1024;

export function createPartCache<V extends { content: Buffer }>(maxBytes = partCacheBytes) {
  const entries = new Map<string, V>();
  let bytes = 0;
  return {
    get(key: string): V | undefined {
      const v = entries.get(key);
      if (v) {
        entries.delete(key);
        entries.set(key, v);
      }
      return v;
    },
    put(key: string, v: V): void {
      const old = entries.get(key);
      if (old) {
        entries.delete(key);
        bytes -= old.content.length;
      }
      if (v.content.length > maxBytes) return;
      entries.set(key, v);
      bytes += v.content.length;
      for (const [k, e] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(k);
        bytes -= e.content.length;
      }
    },
    /** What is held, for the tests of the bound. */
    get bytes() {
      return bytes;
    },
  };
}
