// Which folder the background sync waits on for news (issue 5: "IDLE on the selected folder"): the one the
// user has open, as long as the last sync saw it on the server; INBOX otherwise (nothing open, an imported
// folder, or a folder deleted on the server, whose SELECT would only fail). Pure; tested in idle-folder.test.ts.
export function idleFolder(
  focus: string | null,
  seen: ReadonlySet<string> | ReadonlyMap<string, unknown>,
): string {
  return focus !== null && seen.has(focus) ? focus : 'INBOX';
}
