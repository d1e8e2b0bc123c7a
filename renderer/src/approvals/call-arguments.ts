// What the approval card shows of a call's arguments, and where the provenance marks go (DESIGN §7
// "Provenance"): each argument whose text came from an email rather than from the user's words, and each
// address or URL the user never wrote, carries "from the email, not from you". Pure; tested in
// call-arguments.test.ts.
import type { Provenance } from '../../../shared/contract/index.ts';
import { shortArgs } from '../chat/tool-call-summary.ts';

export type ArgumentRow = {
  name: string;
  value: string;
  // The argument paths under this name that came from an email (`to[0]`, `body`); empty when none did.
  fromEmail: string[];
};

// `to[0]` and `to.name` belong to the argument `to`.
const topName = (path: string): string => path.split(/[.[]/, 1)[0] ?? path;

export function argumentRows(args: unknown, provenance: Provenance): ArgumentRow[] {
  const entries =
    typeof args === 'object' && args !== null && !Array.isArray(args)
      ? Object.entries(args)
      : args === undefined
        ? []
        : [['(arguments)', args] as const];
  const rows: ArgumentRow[] = entries.map(([name, value]) => ({
    name,
    value: shortArgs(value),
    fromEmail: provenance.fromUntrusted.filter((path) => topName(path) === name),
  }));
  // A path the arguments do not show still gets its mark: the card must never drop one.
  const shown = new Set(rows.map((row) => row.name));
  for (const path of provenance.fromUntrusted) {
    if (!shown.has(topName(path))) rows.push({ name: path, value: '—', fromEmail: [path] });
  }
  return rows;
}

// The addresses and URLs the user never named that a preview line mentions (case-insensitive: mail
// addresses are compared as people read them).
export function unnamedIn(line: string, notNamedByUser: readonly string[]): string[] {
  const lower = line.toLowerCase();
  return notNamedByUser.filter((item) => item !== '' && lower.includes(item.toLowerCase()));
}

// Those that no preview line mentions: the card lists them on their own so each is marked somewhere.
export function unnamedElsewhere(lines: readonly string[], notNamedByUser: readonly string[]): string[] {
  return notNamedByUser.filter((item) => !lines.some((line) => unnamedIn(line, [item]).length > 0));
}
