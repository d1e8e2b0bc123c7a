// The main search box with a mail operator, beside the documents (red-team item 17): the real server and bridge,
// the demo mailbox and a PDF that says "is unread" in words, the built renderer in Debian's Chromium. The box
// sends its query to the mail search and to `documents:search`; documents have no unread state, sender or folder,
// so a query with an operator is a filter no document passes and goes to the mail search only. What it proves:
// `is:unread` lists the unread mail and no document (sent to the documents search as it was, FTS5 read it as the
// phrase "is unread" and found the PDF), and the page asks `documents:search` nothing for it; a query of words
// still finds the document beside the mail.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { call, importDemo } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { makePdf } from '../support/documents.ts';
import { searchMail } from '../support/mail-search.ts';
import { tempDir } from '../support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
// Every query the page sent to documents:search, read off the bridge's socket.
const documentQueries: string[] = [];

beforeAll(async () => {
  await importDemo(app);
  const pdf = join(tempDir('skimmer-search-docs-ops-'), 'status-guide.pdf');
  writeFileSync(
    pdf,
    await makePdf(['A message that is unread shows in bold.', 'The quokka lives on Rottnest Island.']),
  );
  const imported = await call(app, 'documents:import', { paths: [pdf] });
  expect(imported.imported).toHaveLength(1);
  ({ served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 800 } }));
  // The socket is opened as the page starts: listen, then start the page again.
  page.on('websocket', (socket) =>
    socket.on('framesent', (frame) => {
      if (typeof frame.payload !== 'string') return;
      const sent = JSON.parse(frame.payload) as { channel?: string; request?: { query?: string } };
      if (sent.channel === 'documents:search') documentQueries.push(sent.request?.query ?? '');
    }),
  );
  await page.reload();
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
});

const documentHits = () => page.getByTestId('search-document-hit');

describe('A mail operator in the main search', () => {
  test('a query of words finds the document beside the mail, through documents:search', async () => {
    await searchMail(page, 'quokka');
    expect(await documentHits().count()).toBe(1);
    expect(documentQueries).toContain('quokka');
  });

  test('is:unread lists the unread mail, no document, and asks documents:search nothing', async () => {
    const unread = app.db.prepare('SELECT count(*) FROM messages WHERE unread = 1').pluck().get() as number;
    expect(unread).toBeGreaterThan(0);
    await searchMail(page, 'is:unread');
    expect(await page.getByTestId('search-hit').count()).toBeGreaterThan(0);
    expect(await documentHits().count()).toBe(0);
    expect(await page.getByTestId('search-documents').count()).toBe(0);
    expect(documentQueries).not.toContain('is:unread');
    expect(foreign).toEqual([]);
  });
});
