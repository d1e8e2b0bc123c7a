// The name a saved attachment gets (safe-file-name.ts): whatever the sender wrote, one visible, bounded component
// that is never a path, a hidden file or a Windows device.
import { describe, expect, test } from 'vitest';
import { distinctNames, maxNameBytes, numberedName, safeFileName } from './safe-file-name.ts';

const bytes = (s: string) => new TextEncoder().encode(s).length;

describe('safeFileName', () => {
  test('keeps an ordinary name as it is', () => {
    expect(safeFileName('invoice-1042.pdf')).toBe('invoice-1042.pdf');
    expect(safeFileName('Quarterly report (final).xlsx')).toBe('Quarterly report (final).xlsx');
    expect(safeFileName('Résumé été.docx')).toBe('Résumé été.docx');
    expect(safeFileName('照片.jpg')).toBe('照片.jpg');
  });

  test.each([
    ['../../.bashrc', '_.._.bashrc'],
    ['../../../etc/passwd', '_.._.._etc_passwd'],
    ['/etc/passwd', '_etc_passwd'],
    ['..\\..\\Windows\\system32\\evil.dll', '_.._Windows_system32_evil.dll'],
    ['C:\\Users\\x\\a.txt', 'C__Users_x_a.txt'],
    ['\\\\server\\share\\a.txt', '__server_share_a.txt'],
    ['..', 'attachment'],
    ['.', 'attachment'],
    ['/', '_'],
  ])('a path %j becomes one name %j', (raw, safe) => {
    const name = safeFileName(raw);
    expect(name).toBe(safe);
    expect(name).not.toMatch(/[/\\]/);
    expect(name.startsWith('.')).toBe(false);
  });

  test.each([
    ['.bashrc', 'bashrc'],
    ['...hidden.txt', 'hidden.txt'],
    [' .ssh', 'ssh'],
    ['.desktop', 'desktop'],
  ])('a hidden name %j is made visible: %j', (raw, safe) => {
    expect(safeFileName(raw)).toBe(safe);
  });

  test.each([
    ['CON', '_CON'],
    ['con.txt', '_con.txt'],
    ['NUL', '_NUL'],
    ['nul.tar.gz', '_nul.tar.gz'],
    ['PRN.pdf', '_PRN.pdf'],
    ['AUX', '_AUX'],
    ['COM1', '_COM1'],
    ['com9.log', '_com9.log'],
    ['LPT1.txt', '_LPT1.txt'],
    ['COM¹', '_COM¹'],
    ['CONIN$', '_CONIN$'],
  ])('a Windows device name %j is not a device: %j', (raw, safe) => {
    expect(safeFileName(raw)).toBe(safe);
  });

  test('names that only start like a device are kept', () => {
    expect(safeFileName('console.log')).toBe('console.log');
    expect(safeFileName('COM10.txt')).toBe('COM10.txt');
    expect(safeFileName('nullable.ts')).toBe('nullable.ts');
  });

  test('control characters are removed, so a name is one line and no terminal escape', () => {
    expect(safeFileName('a\nb.txt')).toBe('ab.txt');
    expect(safeFileName('\u001b[31mred.txt')).toBe('[31mred.txt');
    expect(safeFileName('tab\there.txt')).toBe('tabhere.txt');
    expect(safeFileName('nul\u0000byte.pdf')).toBe('nulbyte.pdf');
    expect(safeFileName('c1\u0085\u009b.txt')).toBe('c1.txt');
  });

  test('bidirectional overrides and invisible characters cannot disguise the extension', () => {
    // Shows as "invoiceexe.pdf" in a file manager that honours the override.
    expect(safeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(safeFileName('a\u2066b\u2069.txt')).toBe('ab.txt');
    expect(safeFileName('zero\u200Bwidth\uFEFF.txt')).toBe('zerowidth.txt');
    expect(safeFileName('\u200E\u200F')).toBe('attachment');
  });

  test('what Windows forbids in a name becomes _', () => {
    expect(safeFileName('a<b>c:d"e|f?g*.txt')).toBe('a_b_c_d_e_f_g_.txt');
  });

  test('trailing dots and spaces go (Windows would drop them and open another file)', () => {
    expect(safeFileName('report.pdf. . ')).toBe('report.pdf');
    expect(safeFileName('  spaced   out  .txt')).toBe('spaced out .txt');
  });

  test('an empty or invisible name gets the fallback', () => {
    expect(safeFileName('')).toBe('attachment');
    expect(safeFileName('   ')).toBe('attachment');
    expect(safeFileName('\u0001\u0002')).toBe('attachment');
    expect(safeFileName('', 'part-3')).toBe('part-3');
  });

  test('a long name is cut to the bound, keeping its extension and whole characters', () => {
    const long = safeFileName(`${'a'.repeat(1000)}.pdf`);
    expect(bytes(long)).toBeLessThanOrEqual(maxNameBytes);
    expect(long.endsWith('.pdf')).toBe(true);
    const wide = safeFileName(`${'照'.repeat(300)}.jpg`);
    expect(bytes(wide)).toBeLessThanOrEqual(maxNameBytes);
    expect(wide).toMatch(/^照+\.jpg$/);
    const emoji = safeFileName('😀'.repeat(200));
    expect(bytes(emoji)).toBeLessThanOrEqual(maxNameBytes);
    expect(emoji).toMatch(/^(😀)+$/u);
  });

  test('a long "extension" is no extension and is cut like the rest', () => {
    const name = safeFileName(`report.${'x'.repeat(500)}`);
    expect(bytes(name)).toBeLessThanOrEqual(maxNameBytes);
    expect(name.startsWith('report.x')).toBe(true);
  });

  test('the same text in two Unicode forms is one name', () => {
    expect(safeFileName('e\u0301te\u0301.txt')).toBe(safeFileName('\u00e9t\u00e9.txt'));
  });
});

describe('numberedName and distinctNames', () => {
  test('a second file of the same name is numbered before its extension', () => {
    expect(numberedName('report.pdf', 1)).toBe('report.pdf');
    expect(numberedName('report.pdf', 2)).toBe('report (2).pdf');
    expect(numberedName('README', 3)).toBe('README (3)');
    expect(numberedName('archive.tar.gz', 2)).toBe('archive.tar (2).gz');
  });

  test('names saved together are all different, case folded', () => {
    expect(distinctNames(['a.pdf', 'a.pdf', 'A.PDF', 'b.pdf', 'a.pdf'])).toEqual([
      'a.pdf',
      'a (2).pdf',
      'A (3).PDF',
      'b.pdf',
      'a (4).pdf',
    ]);
  });

  test('two hostile names that clean to the same name do not collide', () => {
    expect(distinctNames(['../x.txt', '/x.txt', '\\x.txt'])).toEqual(['_x.txt', '_x (2).txt', '_x (3).txt']);
  });

  test('names already in the folder are taken', () => {
    expect(distinctNames(['photo.jpg'], new Set(['Photo.jpg', 'photo (2).jpg']))).toEqual(['photo (3).jpg']);
  });
});
