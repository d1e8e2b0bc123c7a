// What a resource reference in mail (img src, srcset candidate, background, CSS url()) may load. Pure, so the
// rules are tested in Node (resource-url.test.ts); the DOM-side sanitizer only applies the verdicts.

export type ResourceVerdict =
  | { kind: 'inline'; url: string } // data:image/…: loads nothing from anywhere
  | { kind: 'remote'; url: string } // absolute http(s): blocked until the user loads images for the message
  | { kind: 'unusable' }; // relative, cid:, file:, javascript:, …: never loaded

// The URL parser drops ASCII tab and newline anywhere and C0 controls and spaces at both ends (WHATWG URL,
// "basic URL parser"), so `jav\tascript:` or ` https://x` must be judged as the browser would read them.
export function cleanUrl(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters the URL parser strips.
  return raw.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

export function classifyResource(raw: string): ResourceVerdict {
  const url = cleanUrl(raw);
  // An SVG loaded as an image cannot run script or fetch anything (HTML §"image" documents), so any image type is fine.
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(url)) return { kind: 'inline', url };
  // Protocol-relative references would resolve against the app's own address; old mail means https.
  const absolute = url.startsWith('//') ? `https:${url}` : url;
  if (!/^https?:/i.test(absolute)) return { kind: 'unusable' };
  try {
    return { kind: 'remote', url: new URL(absolute).href };
  } catch {
    return { kind: 'unusable' };
  }
}

export type SrcsetCandidate = { url: string; descriptor: string };

// HTML §"parse a srcset attribute", simplified: a URL runs to the next whitespace (so data: URLs keep their
// commas), trailing commas end a candidate, and descriptors run to the next comma outside parentheses.
export function parseSrcset(value: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let at = 0;
  while (at < value.length) {
    while (at < value.length && /[\s,]/.test(value[at] ?? '')) at++;
    if (at >= value.length) break;
    const urlStart = at;
    while (at < value.length && !/\s/.test(value[at] ?? '')) at++;
    let url = value.slice(urlStart, at);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
      candidates.push({ url, descriptor: '' });
      continue;
    }
    const descriptorStart = at;
    let depth = 0;
    while (at < value.length && !(value[at] === ',' && depth === 0)) {
      if (value[at] === '(') depth++;
      else if (value[at] === ')') depth = Math.max(0, depth - 1);
      at++;
    }
    candidates.push({ url, descriptor: value.slice(descriptorStart, at).trim() });
  }
  return candidates;
}
