import { describe, expect, test } from 'vitest';
import { openDialogOptions } from './open-dialog.ts';

describe('the system open dialog', () => {
  test('chooses several mail files, offering every file beside .mbox and .eml', () => {
    const options = openDialogOptions({ purpose: 'mail', kind: 'files' });
    expect(options.properties).toEqual(expect.arrayContaining(['openFile', 'multiSelections']));
    expect(options.properties).not.toContain('openDirectory');
    expect(options.filters?.map((f) => f.extensions)).toEqual([['mbox', 'mbx', 'eml'], ['*']]);
  });

  test('chooses folders for Maildir, as a folder chooser only', () => {
    const options = openDialogOptions({ purpose: 'mail', kind: 'folders' });
    expect(options.properties).toEqual(expect.arrayContaining(['openDirectory', 'multiSelections']));
    expect(options.properties).not.toContain('openFile');
  });

  test('chooses document files only, whatever kind is asked', () => {
    const options = openDialogOptions({ purpose: 'documents', kind: 'folders' });
    expect(options.properties).toEqual(['openFile', 'multiSelections']);
    expect(options.filters?.[0]?.extensions).toEqual(['txt', 'md', 'markdown', 'pdf', 'docx']);
  });
});
