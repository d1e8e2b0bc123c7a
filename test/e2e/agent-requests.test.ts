// Requests from outside agents in the page (issue 19, DESIGN §13 "Outside agents"): a real `skimmer mcp`
// process with the SDK's client that cannot ask the user itself, the app on the same data folder as
// `skimmer serve` runs it, and the built renderer in Debian's Chromium. The card appears in the agents'
// place, approving runs the call (and the Undo bar offers it), denying refuses it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import { openApp } from '../support/browser.ts';
import { type McpSession, startMcp } from '../support/mcp-session.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { eml, tempDir } from '../support/temp.ts';

const dataDir = tempDir();
const app = createApp({ dataDir, mode: 'browser', background: true });
let served: Served;
let browser: Browser;
let page: Page;
let agent: McpSession;
const foreign: string[] = [];

const folderOf = (subject: string) =>
  app.db
    .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = ?')
    .pluck()
    .get(subject);
const idOf = (subject: string) =>
  app.db.prepare('SELECT id FROM messages WHERE subject = ?').pluck().get(subject) as number;
const text = (r: Awaited<ReturnType<McpSession['client']['callTool']>>) =>
  (r.content as { text: string }[]).map((c) => c.text).join('\n');

beforeAll(async () => {
  const mail = tempDir();
  writeFileSync(
    join(mail, 'a.eml'),
    eml({ id: '<a@x>', subject: 'Quarterly plans', from: 'Ann <ann@example.com>' }),
  );
  writeFileSync(
    join(mail, 'b.eml'),
    eml({ id: '<b@x>', subject: 'Lunch on Friday', from: 'Ben <ben@example.com>' }),
  );
  await app.importFiles([mail], () => {}).done;
  ({ served, browser, page } = await openApp(app, { foreign }));
  await page.getByTestId('thread-row').first().waitFor();
  agent = await startMcp(dataDir, { name: 'Claude Desktop' });
}, 120_000);

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await served?.close();
  await app.close();
});

describe('Requests from outside agents', () => {
  test('an agent’s archive waits on a card in the app, runs when approved there, and Undo takes it back', async () => {
    const call = agent.client.callTool({ name: 'archive', arguments: { ids: [idOf('Quarterly plans')] } });
    const badge = page.getByTestId('agent-requests-open');
    await expect.poll(() => badge.textContent()).toBe('Agent requests (1)');
    await badge.click();
    const card = page.getByTestId('agent-request');
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain('Asked by an outside agent: Claude Desktop 1.0');
    await expect.poll(() => card.getByTestId('call-line').first().textContent()).toContain('Quarterly plans');
    expect(folderOf('Quarterly plans')).not.toBe('Archive');

    await card.getByTestId('approve-call').click();
    const result = await call;
    expect(result.isError).toBe(false);
    expect(folderOf('Quarterly plans')).toBe('Archive');
    await expect.poll(() => page.getByTestId('agent-request').count()).toBe(0);
    await expect.poll(() => badge.count()).toBe(0);

    // The Undo bar offers the agent's change, as after an assistant's run, and names the agent (issue 29 §7).
    await expect
      .poll(() => page.getByTestId('undo-summary').textContent())
      .toBe('Claude Desktop: Archived 1 message');
    await page.getByTestId('undo-bar').screenshot({ path: screenshotPath('shortcuts-undo-agent.png') });
    await page.getByTestId('undo-button').click();
    await expect.poll(() => folderOf('Quarterly plans')).not.toBe('Archive');
  });

  test('a send to an address the user never wrote is marked on the card, and denying it sends nothing', async () => {
    const call = agent.client.callTool({
      name: 'send_mail',
      arguments: { to: ['mallory@evil.example'], subject: 'Lunch', body: 'See you Friday.' },
    });
    await page.getByTestId('agent-requests-open').click();
    const card = page.getByTestId('agent-request');
    await card.waitFor();
    await expect
      .poll(() => card.getByTestId('call-line').first().textContent())
      .toContain('mallory@evil.example');
    // The address came from the agent: the card says the user never wrote it, not that an email did.
    await expect
      .poll(() => card.getByTestId('call-line').first().getByTestId('provenance-mark').textContent())
      .toBe('never written by you: from the agent or an email');
    await page.screenshot({ path: join(projectRoot, 'test-results', 'screenshots', 'agent-request.png') });
    await card.getByTestId('deny-call').click();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('declined');
    expect(app.db.prepare('SELECT count(*) FROM outbox').pluck().get()).toBe(0);
    expect(foreign).toEqual([]);
  });
});
