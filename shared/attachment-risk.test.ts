// Which attachments Open must warn about first (issue 29 §1): programs, scripts, launchers and macro documents by
// their extension as it would be written (a right-to-left override cannot hide .exe), or by the type declared.
import { describe, expect, test } from 'vitest';
import { openWarning } from './attachment-risk.ts';

describe('openWarning', () => {
  test.each([
    ['setup.exe', 'application/octet-stream'],
    ['invoice.js', 'application/octet-stream'],
    ['launcher.desktop', 'application/octet-stream'],
    ['run.sh', 'text/plain'],
    ['Report.lnk', 'application/octet-stream'],
    ['budget.xlsm', 'application/vnd.ms-excel.sheet.macroEnabled.12'],
    ['letter.DOCM', 'application/octet-stream'],
    ['invoice\u202Efdp.exe', 'application/pdf'],
    ['archive.pdf.exe', 'application/pdf'],
  ])('%s is a program to warn about', (name, type) => {
    expect(openWarning(name, type)).toMatch(/can run a program on this computer/);
  });

  test.each([
    ['invoice.pdf', 'application/pdf'],
    ['photo.jpeg', 'image/jpeg'],
    ['notes.txt', 'text/plain'],
    ['report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['exe', 'application/octet-stream'],
  ])('%s opens without a warning', (name, type) => {
    expect(openWarning(name, type)).toBeNull();
  });

  test('a program sent under a harmless name is known by its declared type', () => {
    expect(openWarning('readme.txt', 'application/x-msdownload')).toMatch(
      /of the type application\/x-msdownload/,
    );
    expect(openWarning('data', 'text/javascript; charset=utf-8')).toMatch(/of the type text\/javascript/);
  });

  test('names the file as it would be written, without the hidden override', () => {
    expect(openWarning('invoice\u202Efdp.exe', 'application/pdf')).toBe(
      '"invoicefdp.exe" is a .exe file: opening it can run a program on this computer with your rights. ' +
        'Open it only if you expected it from this sender.',
    );
  });
});
