// The subject of a reply or a forward (DESIGN §11, "Reply, reply all, forward"): the original's subject with
// every reply and forward prefix in front of it taken off, then exactly one of ours. So a reply is never
// `Re: Re:` and a forward never `Fwd: Fwd:`; a reply to a forward is `Re:` and a forward of a reply `Fwd:`, the
// chain of prefixes in front of the subject is replaced by one, as Apple Mail does.
//
// The prefixes are those mail programs write in their users' languages (Outlook's translations, Thunderbird's
// `mail.reply_prefixes`), read case-insensitively, with a counter (`Re[2]:`, `Re(2):`), a space before the
// colon (French Outlook writes `RE :`) and a full-width colon (`回复：`). One-letter prefixes (Italian Outlook's
// `R:` and `I:`) are not taken off: a subject such as `R: plotting help` would lose its first word.
// threads.ts keeps its own, wider pattern for the subject fallback of threading, where a wrong match only
// costs a key.

const replyWords = [
  're', // English, and most languages by habit
  'aw', // German (Antwort)
  'antw', // German, Dutch
  'antwort', // German
  'sv', // Swedish, Danish, Norwegian (svar)
  'vs', // Finnish (vastaus), Norwegian
  'réf', // French (référence)
  'ref',
  'rif', // Italian (riferimento)
  'odp', // Polish (odpowiedź)
  'ynt', // Turkish (yanıt)
  'atb', // Latvian (atbilde)
  '回复', // Chinese (simplified)
  '回覆', // Chinese (traditional)
  '答复', // Chinese, Outlook
  '答覆',
];
const forwardWords = [
  'fwd',
  'fw',
  'wg', // German (weitergeleitet)
  'tr', // French (transféré)
  'rv', // Spanish (reenviado)
  'enc', // Portuguese (encaminhado)
  'pd', // Polish (prześlij dalej)
  'vb', // Swedish (vidarebefordrat)
  'doorst', // Dutch (doorgestuurd)
  '转发', // Chinese (simplified)
  '轉寄', // Chinese (traditional)
  '转寄',
];

// Longest first, so `antwort` is not read as `antw` followed by `ort`.
const words = [...replyWords, ...forwardWords].sort((a, b) => b.length - a.length).join('|');
// One prefix: the word, an optional counter, optional spaces, a colon (ASCII or full-width), spaces after it.
const prefixChain = new RegExp(`^(?:\\s*(?:${words})\\s*(?:\\[\\d+\\]|\\(\\d+\\))?\\s*[:：]\\s*)+`, 'iu');

/** The subject with every reply and forward prefix in front of it taken off, trimmed. */
export function baseSubject(subject: string): string {
  // NFC, so a `Réf:` written with a combining accent is the same word.
  return subject.normalize('NFC').replace(prefixChain, '').trim();
}

/** `Re: ` and the base subject (`Re:` alone for a message without one). */
export function replySubject(subject: string): string {
  return withPrefix('Re:', baseSubject(subject));
}

/** `Fwd: ` and the base subject. */
export function forwardSubject(subject: string): string {
  return withPrefix('Fwd:', baseSubject(subject));
}

const withPrefix = (prefix: string, base: string) => (base === '' ? prefix : `${prefix} ${base}`);
