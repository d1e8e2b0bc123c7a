// Redaction (DESIGN §6): provider text may only reach the user as `providerDetail`, and only after every
// configured key (by value, 8+ characters) and anything shaped like a key is masked, and the result is cut
// to 200 characters. Masking happens before cutting, so a cut can never expose half a key; the cut never
// splits a surrogate pair.
const maxDetail = 200;
const mask = '[redacted]';

// sk-… (sk-ant-…, sk-proj-… among them) and bearer tokens; long enough not to eat ordinary words.
const keyShaped = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
];

/** `text` with every configured key (by value, 8+ characters) masked, and nothing else changed. */
export function maskKeys(text: string, keys: readonly string[], as = mask): string {
  let out = text;
  // Longest first, so a key that contains another is masked whole.
  for (const key of [...keys].filter((k) => k.length >= 8).sort((a, b) => b.length - a.length)) {
    out = out.split(key).join(as);
  }
  return out;
}

export function redact(text: string, keys: readonly string[] = []): string {
  let out = maskKeys(text, keys);
  for (const pattern of keyShaped) out = out.replace(pattern, mask);
  return capText(out.replace(/\s+/g, ' ').trim(), maxDetail);
}

// Cuts text to `max` characters with an ellipsis, never leaving half a surrogate pair.
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // do not leave a lone high surrogate
  return `${text.slice(0, end)}…`;
}
