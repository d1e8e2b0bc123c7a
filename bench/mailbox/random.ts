// A seeded PRNG (mulberry32) so the same seed always writes the same mailbox, byte for byte.
export type Random = ReturnType<typeof seededRandom>;

export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const between = (lo: number, hi: number) => lo + int(hi - lo + 1);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const chance = (p: number) => next() < p;
  const weighted = <T>(entries: readonly (readonly [T, number])[]): T => {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = next() * total;
    for (const [v, w] of entries) {
      r -= w;
      if (r < 0) return v;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  };
  const normal = () => {
    const u = 1 - next();
    const v = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const logNormal = (median: number, sigma: number) => median * Math.exp(sigma * normal());
  const hex = (n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += int(16).toString(16);
    return s;
  };
  const bytes = (n: number) => {
    const buf = Buffer.alloc(n);
    for (let i = 0; i < n; i += 4) buf.writeUInt32LE(int(0x100000000), Math.min(i, n - 4));
    return buf;
  };
  return { next, int, between, pick, chance, weighted, normal, logNormal, hex, bytes };
}
