// The name a saved attachment gets on disk (issue 29 §1), in the main process and the page alike. The name in a message is the sender's text: it may
// say `../../.bashrc`, `/etc/passwd`, `C:\Windows\x.dll`, `CON`, `.ssh`, or hide `exe.pdf` behind a
// right-to-left override. Pure; the caller decides the folder, this decides only the last component, and the
// writer (electron/mail/attachments/save.ts, or the browser's download) creates the file without following links, never over an existing one, never executable.

// SECURITY: C0 and C1 controls and DEL (a newline in a name breaks every listing; an escape rewrites a terminal).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const controls = /[\u0000-\u001f\u007f-\u009f]/g;
// SECURITY: bidirectional controls and invisible characters: "invoice\u202Efdp.exe" shows as "invoiceexe.pdf".
const invisible =
  /[\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\u3164\ufeff\ufff9-\ufffb]/g;
// SECURITY: separators of every system (a name is never a path) and what Windows forbids in a name.
const forbidden = /[/\\<>:"|?*]/g;
// SECURITY: Windows device names, with any extension (`nul.txt` is the device too), and with the superscript
// digits Windows also treats as COM and LPT ports.
const device = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/** The longest name written, in UTF-8 bytes: under every common file system's 255, with room for " (999)". */
export const maxNameBytes = 200;
const maxExtensionChars = 16;
const utf8 = new TextEncoder();
const byteLength = (s: string) => utf8.encode(s).length;

/** A file name safe to create in a folder the person chose: one component, visible, bounded, never a device. */
export function safeFileName(raw: string, fallback = 'attachment'): string {
  let name = raw
    .normalize('NFC')
    .replace(controls, '')
    .replace(invisible, '')
    .replace(forbidden, '_')
    .replace(/\s+/g, ' ');
  // SECURITY: no hidden file (`.bashrc`, `.desktop` dropped into a folder) and nothing Windows would silently
  // trim: leading dots and spaces, trailing dots and spaces.
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (name === '') name = fallback;
  const { stem, extension } = split(name);
  const base = stem.split('.')[0] ?? stem;
  const safeStem = device.test(base.trim()) ? `_${stem}` : stem;
  return bounded(safeStem, extension);
}

/** The `n`th name for a file whose first choice is taken: `report.pdf` → `report (2).pdf`. */
export function numberedName(name: string, n: number): string {
  if (n <= 1) return name;
  const { stem, extension } = split(name);
  return `${stem} (${n})${extension}`;
}

/** Names for a list of attachments saved together: safe, and no two alike (case folded, as macOS and Windows do). */
export function distinctNames(raws: readonly string[], taken: ReadonlySet<string> = new Set()): string[] {
  const used = new Set([...taken].map((t) => t.toLowerCase()));
  return raws.map((raw) => {
    const first = safeFileName(raw);
    for (let n = 1; ; n++) {
      const candidate = numberedName(first, n);
      if (!used.has(candidate.toLowerCase())) {
        used.add(candidate.toLowerCase());
        return candidate;
      }
    }
  });
}

// The extension is what follows the last dot, when short and plain ("report.final.pdf" → ".pdf").
function split(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name, extension: '' };
  const extension = name.slice(dot);
  if (extension.length > maxExtensionChars + 1 || /\s/.test(extension)) return { stem: name, extension: '' };
  return { stem: name.slice(0, dot), extension };
}

// Cut the stem, never the extension, on a character boundary, until the whole name fits maxNameBytes.
function bounded(stem: string, extension: string): string {
  const room = maxNameBytes - byteLength(extension);
  let kept = '';
  let bytes = 0;
  for (const ch of stem) {
    const b = byteLength(ch);
    if (bytes + b > room) break;
    kept += ch;
    bytes += b;
  }
  // A cut may end the stem on a dot or a space, which the name must not end on when it has no extension.
  const cut = kept === stem ? kept : kept.replace(/[.\s]+$/, '');
  return `${cut || 'attachment'}${extension}`;
}
