// HTML character references in text taken from mail's markup, as a reader sees them: numeric ones (decimal and
// hex; one out of Unicode's range reads as U+FFFD) and the few named ones mail uses in practice. Shared by the
// hidden-text scan and the link warnings, which must read a link's text as the same characters.
const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
    }
    return named[name.toLowerCase()] ?? whole;
  });
}
