// The threading headers of a reply (RFC 5322 §3.6.4): In-Reply-To is the Message-ID of the message answered,
// References its References (or, without them, its In-Reply-To) followed by its Message-ID. Used for the draft
// a reply starts and by compose.ts when the message goes out, so both carry the same thread.

/**
 * How many ids References keeps. A long thread's list grows by one a reply; servers and clients cut it (RFC
 * 5537 §3.4.4 lets a Netnews agent drop ids from the middle, keeping the first), and the header must stay a
 * reasonable size. The first id (the thread's root) and the newest are the ones threading needs.
 */
export const maxReferences = 20;

/** A Message-ID in its `<…>` form, or null when it cannot be one (empty, or with spaces or brackets inside). */
export function messageIdForm(id: string): string | null {
  const bare = id.trim().replace(/^<(.*)>$/s, '$1');
  if (bare === '' || /[\s<>]/.test(bare)) return null;
  return `<${bare}>`;
}

export type Threading = { inReplyTo: string | null; references: string[] };

/**
 * The In-Reply-To and References of a reply to a message with this Message-ID, References and In-Reply-To:
 * ids in their `<…>` form, oldest first, each once, at most `maxReferences` (the root and the newest).
 */
export function replyThreading(answered: {
  messageId: string;
  references: readonly string[];
  inReplyTo?: string | null;
}): Threading {
  const own = messageIdForm(answered.messageId);
  const earlier = answered.references.length > 0 ? answered.references : [answered.inReplyTo ?? ''];
  // Its own id last, whatever its References held.
  const seen = new Set<string>(own ? [own] : []);
  const chain: string[] = [];
  for (const id of earlier) {
    const form = messageIdForm(id);
    if (form === null || seen.has(form)) continue;
    seen.add(form);
    chain.push(form);
  }
  if (own) chain.push(own);
  const references =
    chain.length <= maxReferences ? chain : [...chain.slice(0, 1), ...chain.slice(-(maxReferences - 1))];
  return { inReplyTo: own, references };
}
