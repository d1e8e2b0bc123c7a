// The call ids a provider is sent (DESIGN §6, §7). Stored turns name calls by Skimmer's ids; a provider pairs
// a result with its call by the id the call came with. Each call goes back under that id when it is a usable
// pairing key: non-empty, of a shape every provider takes, and given to no other call of the history.
// Otherwise (an empty id, two calls of a round under one id, `call_0` in every round) the call and its
// result go under Skimmer's id instead: every provider Skimmer speaks is stateless (the whole history is
// sent each time, nothing is stored at the provider, `store: false` for Responses), so renaming both sides
// of a pair is invisible to it, and a result can never answer the wrong call.
import type { Block, Turn } from './messages.ts';

export function toWireIds(history: readonly Turn[]): Turn[] {
  const used = new Set<string>();
  // Skimmer id → the ids its results go under, in call order (turns from before Skimmer named calls may
  // repeat one id: the k-th result under an id answers the k-th call under it).
  let open = new Map<string, string[]>();
  return history.map((turn) => {
    if (turn.role === 'assistant') {
      const next = new Map<string, string[]>();
      const content = turn.content.map((b): Block => {
        if (b.type !== 'tool_call') return b;
        const wire = wireIdFor(b.wireId ?? b.id, b.id, used);
        used.add(wire);
        next.set(b.id, [...(next.get(b.id) ?? []), wire]);
        const { wireId: _provider, ...call } = b;
        return { ...call, id: wire };
      });
      open = next;
      return { ...turn, content };
    }
    const answering = open;
    open = new Map();
    return {
      ...turn,
      content: turn.content.map((b): Block => {
        if (b.type !== 'tool_result') return b;
        const wire = answering.get(b.callId)?.shift();
        return wire === undefined ? b : { ...b, callId: wire };
      }),
    };
  });
}

// Anthropic takes only `^[a-zA-Z0-9_-]+$` (up to 64 here, as a sane bound), and a conversation may move to
// another service mid-way: an id outside that shape goes under Skimmer's id, which always fits it.
const portableId = /^[A-Za-z0-9_-]{1,64}$/;

function wireIdFor(provider: string, skimmer: string, used: ReadonlySet<string>): string {
  if (portableId.test(provider) && !used.has(provider)) return provider;
  if (!used.has(skimmer)) return skimmer;
  // Only a turn stored before Skimmer named calls can get here (its ids are the provider's, repeated).
  for (let n = 2; ; n += 1) if (!used.has(`${skimmer}-${n}`)) return `${skimmer}-${n}`;
}
