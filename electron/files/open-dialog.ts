// The desktop app's system open dialog for `files:pick` (DESIGN §13, "Choosing files"): which dialog for what is
// chosen, as a pure function, so main.ts only hands it to Electron's `dialog.showOpenDialog`.
import type { OpenDialogOptions } from 'electron';

export type PickChoice = { purpose: 'mail' | 'documents'; kind: 'files' | 'folders' };

// Thunderbird keeps its mbox files without an extension, so "All files" is always offered beside the named kinds.
const allFiles = { name: 'All files', extensions: ['*'] };

/**
 * Electron's dialog is a file chooser or a folder chooser, not both: on Windows and Linux asking for both shows a
 * folder chooser only (Electron's dialog docs, `properties`). So mail offers two: files (.mbox, .eml) and folders
 * (Maildir, or a folder of exports, which the import walks). Documents are files only.
 */
export function openDialogOptions(choice: PickChoice): OpenDialogOptions {
  if (choice.purpose === 'documents') {
    return {
      title: 'Import documents',
      buttonLabel: 'Choose',
      properties: ['openFile', 'multiSelections'],
      filters: [{ name: 'Documents', extensions: ['txt', 'md', 'markdown', 'pdf', 'docx'] }, allFiles],
    };
  }
  if (choice.kind === 'folders') {
    return {
      title: 'Import mail: choose Maildir folders or folders of mail files',
      buttonLabel: 'Choose',
      properties: ['openDirectory', 'multiSelections', 'showHiddenFiles'],
    };
  }
  return {
    title: 'Import mail: choose .mbox or .eml files',
    buttonLabel: 'Choose',
    properties: ['openFile', 'multiSelections', 'showHiddenFiles'],
    filters: [{ name: 'Mail files', extensions: ['mbox', 'mbx', 'eml'] }, allFiles],
  };
}
