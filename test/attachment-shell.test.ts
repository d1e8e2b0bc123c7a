// The desktop app's Save, Save all and Open for attachments (issue 29 §1) through the bridge, on a real app and
// SQLite file, with the shell's dialogs and opener (main.ts's Electron calls) replaced by recorders: the bytes
// written are the part's, Save all gives distinct safe names in the folder chosen, Open writes into a private
// temporary folder and hands that file to the system, and a program is opened only once confirmed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { mailWithFiles } from './support/attachment-mail.ts';
import { call } from './support/bridge.ts';
import { tempDir } from './support/temp.ts';

const files = tempDir();
const out = tempDir();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const pdf = Buffer.from('%PDF-1.4 not really, but bytes\n');
const names = ['report.pdf', 'setup.exe', '../../.bashrc'];
const eml = mailWithFiles(
  'shell@example.org',
  'Shell',
  names.map((name, k) => ({
    name,
    type: 'application/octet-stream',
    body: k === 0 ? pdf : Buffer.from(`file ${k}`),
  })),
);

const asked: string[] = [];
const opened: string[] = [];
let savePath: string | null = null;
let app: App;
let message: number;

beforeAll(async () => {
  writeFileSync(join(files, 'shell.eml'), eml);
  app = createApp({
    dataDir: tempDir(),
    mode: 'desktop',
    attachmentShell: {
      saveAs: async (name) => {
        asked.push(name);
        return savePath;
      },
      chooseFolder: async () => out,
      openPath: async (path) => {
        opened.push(path);
        return '';
      },
    },
  });
  await app.importFiles([files], () => {}).done;
  message = app.db
    .prepare('SELECT id FROM messages WHERE message_id = ?')
    .pluck()
    .get('<shell@example.org>') as number;
}, 30_000);
afterAll(() => app?.close());

describe('the desktop shell for attachments', () => {
  test('Save suggests the safe name, writes the bytes where the person chose, and a cancel writes nothing', async () => {
    savePath = null;
    expect(await call(app, 'attachment:save', { message, index: 2 })).toEqual({
      available: true,
      saved: null,
    });
    expect(asked).toEqual(['_.._.bashrc']);
    savePath = join(tempDir(), 'chosen.pdf');
    expect(await call(app, 'attachment:save', { message, index: 0 })).toEqual({
      available: true,
      saved: savePath,
    });
    expect(sha(readFileSync(savePath))).toBe(sha(pdf));
    expect(statSync(savePath).mode & 0o111).toBe(0);
  });

  test('Save all writes every attachment into the folder chosen under distinct safe names', async () => {
    expect(await call(app, 'attachment:save-all', { message })).toEqual({
      available: true,
      folder: out,
      saved: 3,
    });
    expect(readdirSync(out).sort()).toEqual(['_.._.bashrc', 'report.pdf', 'setup.exe']);
    expect(sha(readFileSync(join(out, 'report.pdf')))).toBe(sha(pdf));
  });

  test('Open writes into a private temporary folder and hands that file to the system', async () => {
    expect(await call(app, 'attachment:open', { message, index: 0, confirmed: false })).toEqual({
      available: true,
      opened: true,
      warning: null,
    });
    const path = opened.at(-1) as string;
    expect(path.endsWith('/report.pdf')).toBe(true);
    expect(sha(readFileSync(path))).toBe(sha(pdf));
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o111).toBe(0);
  });

  test('a program is not written or opened until the person confirms the warning', async () => {
    const before = opened.length;
    const first = await call(app, 'attachment:open', { message, index: 1, confirmed: false });
    expect(first).toMatchObject({ available: true, opened: false });
    expect(first.warning).toMatch(/^"setup.exe" is a .exe file: opening it can run a program/);
    expect(opened.length).toBe(before);
    const second = await call(app, 'attachment:open', { message, index: 1, confirmed: true });
    expect(second).toMatchObject({ available: true, opened: true });
    expect(readFileSync(opened.at(-1) as string, 'utf8')).toBe('file 1');
  });

  test('browser mode has no shell: the page downloads instead', async () => {
    const browser = createApp({ dataDir: tempDir(), mode: 'browser' });
    try {
      expect(await call(browser, 'attachment:save', { message: 1, index: 0 })).toEqual({
        available: false,
        saved: null,
      });
      expect(await call(browser, 'attachment:open', { message: 1, index: 0, confirmed: true })).toEqual({
        available: false,
        opened: false,
        warning: null,
      });
    } finally {
      await browser.close();
    }
  });
});
