// Which folders the background sync waits on for news (issue 5: "IDLE on the selected folder"): the one the
// user has open, as long as the last sync saw it on the server, and INBOX beside it, since new mail lands
// there whatever folder is open (as Thunderbird keeps INBOX checked); INBOX alone otherwise (nothing open,
// an imported folder, or a folder deleted on the server, whose SELECT would only fail). The open folder
// comes first: a server that refuses the second connection leaves the wait on it. Pure; tested in
// idle-folder.test.ts.
export function idleFolders(
  focus: string | null,
  seen: ReadonlySet<string> | ReadonlyMap<string, unknown>,
): string[] {
  return focus !== null && focus !== 'INBOX' && seen.has(focus) ? [focus, 'INBOX'] : ['INBOX'];
}
