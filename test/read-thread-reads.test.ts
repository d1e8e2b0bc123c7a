// The reads that can take more than a few milliseconds run on the read thread in the long-running app (reads/reads.ts,
// DESIGN §3): a conversation (`mail:thread`, the assistant's read_thread), what a summary or a question over mail
// and documents reads, what a drafted reply reads, the assistant's search_mail, and what a triage scope covers
// for its estimate and its rules' card. Each gives on the thread what
// it gives on the main thread; a refusal there is the same typed error here; and while one is held on the
// thread, the bridge answers a cheap request. To hold a read without timing, the main connection keeps the
// write lock and the thread's messages have no warnings yet: the read thread checks and keeps them when it
// reads them (warning-store.ts `ensure`), so it waits for the lock, and every read queued behind it waits too.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AssistantError } from '../electron/ai/assistant-error.ts';
import type { AnyTool } from '../electron/ai/tools/tool.ts';
import { prepareJudgeAnswers } from '../electron/ai/triage/answers.ts';
import { prepareQuestionSets, starterQuestions } from '../electron/ai/triage/question-sets.ts';
import { createApp } from '../electron/app.ts';
import { DocumentError } from '../electron/documents/document-error.ts';
import { prepareIdentities } from '../electron/mail/identities.ts';
import { MailError } from '../electron/mail/mail-error.ts';
import { SearchQueryError } from '../electron/mail/store/search.ts';
import { prepareReads } from '../electron/reads/reads.ts';
import type { StreamEvent } from '../shared/contract/index.ts';
import type { Answer } from '../shared/judge.ts';
import { call, callRaw, streamUntil } from './support/bridge.ts';
import { type CitingModel, startCitingModel } from './support/citing-model.ts';
import { makePdf } from './support/documents.ts';
import { toolsOver } from './support/mail-tools.ts';
import { eml, tempDir } from './support/temp.ts';
import { toolText } from './support/tool-text.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
const here = prepareReads(app.db);
let model: CitingModel;
let threadId = 0;
let messageIds: number[] = [];
let documentId = 0;
let setId = 0;
// The rules' card over every message: archive the work mail (each message answered `work` below).
const rules = [
  { question: 'category', when: { op: 'is', value: 'work' }, action: { kind: 'archive' } },
] as const;
const tools = new Map<string, AnyTool>();

const idOf = (messageId: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number;
const runTool = async (name: string, args: object) => {
  const tool = tools.get(name) as AnyTool;
  const out = await tool.run(tool.schema.parse(args), { signal: new AbortController().signal });
  return { untrusted: out.untrusted === true, output: toolText(out) };
};

beforeAll(async () => {
  model = await startCitingModel();
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: model.base });
  prepareIdentities(app.db).add({ address: 'bob@example.com', name: 'Bob' });
  const mail = tempDir();
  writeFileSync(
    join(mail, '1.eml'),
    eml({ id: '<t1@x>', subject: 'Budget meeting', body: 'Thanks, can we meet about the budget?' }),
  );
  writeFileSync(
    join(mail, '2.eml'),
    eml({
      id: '<t2@x>',
      subject: 'Re: Budget meeting',
      inReplyTo: '<t1@x>',
      date: 'Mon, 30 Nov 2026 11:00:00 +0000',
      body: 'Thanks, Tuesday works for the meeting.',
    }),
  );
  // Your own mail elsewhere: a drafted reply reads it as an example of how you write.
  writeFileSync(
    join(mail, '3.eml'),
    eml({
      id: '<own@x>',
      from: 'Bob <bob@example.com>',
      subject: 'Lunch',
      date: 'Fri, 27 Nov 2026 12:00:00 +0000',
      body: 'Cheers, see you at noon.',
    }),
  );
  await app.importFiles([mail], () => {}).done;
  messageIds = [idOf('<t1@x>'), idOf('<t2@x>')];
  threadId = app.db
    .prepare('SELECT thread_id FROM messages WHERE id = ?')
    .pluck()
    .get(messageIds[0]) as number;
  const files = tempDir();
  writeFileSync(
    join(files, 'policy.pdf'),
    await makePdf(['The budget is set each spring.', 'Meetings last an hour.']),
  );
  const imported = await call(app, 'documents:import', { paths: [join(files, 'policy.pdf')] });
  documentId = imported.imported[0]?.id ?? 0;
  for (const t of app.tools) tools.set(t.name, t);
  setId = prepareQuestionSets(app.db).save({ name: 'Triage', questions: starterQuestions }).id;
  const answers = prepareJudgeAnswers(app.db);
  for (const hash of app.db.prepare('SELECT content_hash FROM messages').pluck().all() as string[]) {
    const answered: Answer[] = starterQuestions.map((q): Answer => {
      if (q.type === 'choice') return { type: 'choice', name: q.name, choice: 'work' };
      if (q.type === 'predicate') return { type: 'predicate', name: q.name, probability: 0.5 };
      return { type: 'score', name: q.name, score: 2 };
    });
    answers.store(hash, 'local/m', starterQuestions, answered, 'probabilities', null);
  }
});
afterAll(async () => {
  await app.close();
  await model?.close();
});

describe('each read on the read thread', () => {
  test('gives a conversation with its messages and bodies as the main thread does', async () => {
    const mine = here.thread(threadId);
    expect(mine?.messages.map((m) => m.text.trim())).toEqual([
      'Thanks, can we meet about the budget?',
      'Thanks, Tuesday works for the meeting.',
    ]);
    expect(await app.reads.thread(threadId)).toEqual(mine);
  });

  test('gives no conversation for an id that is none, as the main thread does', async () => {
    expect(here.thread(999_999)).toBeNull();
    expect(await app.reads.thread(999_999)).toBeNull();
  });

  test('loads the mail and the document chunks a question names as the main thread does', async () => {
    const named = { threadId, documentIds: [documentId], question: 'When is the budget set?' };
    const mine = here.namedSources(named);
    expect(mine.messages.map((m) => m.id)).toEqual(messageIds);
    expect(mine.perDocument[0]?.map((c) => c.text)).toEqual(['The budget is set each spring.']);
    expect(await app.reads.namedSources(named)).toEqual(mine);
  });

  test('loads a drafted reply’s thread and your examples as the main thread does', async () => {
    const mine = here.replyRequest(messageIds[1] as number, 'Say yes.');
    expect(mine.thread.map((m) => m.id)).toEqual(messageIds);
    expect(mine.examples.map((e) => e.text)).toEqual(['Cheers, see you at noon.']);
    expect(await app.reads.replyRequest(messageIds[1] as number, 'Say yes.')).toEqual(mine);
  });

  test('measures a triage scope for its estimate as the main thread does', async () => {
    const mine = here.scopeMeasure(setId, { kind: 'all' });
    expect(mine.messages).toBe(3);
    expect(await app.reads.scopeMeasure(setId, { kind: 'all' })).toEqual(mine);
  });

  test('gives the rules’ card as the main thread does', async () => {
    const mine = here.ruleSuggestions(setId, { kind: 'all' }, rules);
    expect(mine[0]?.messages.map((m) => m.id).sort()).toEqual([...messageIds, idOf('<own@x>')].sort());
    expect(await app.reads.ruleSuggestions(setId, { kind: 'all' }, rules)).toEqual(mine);
  });

  test("gives the label picker's counts over a search as the main thread does, and its refusal as its class", async () => {
    const selection = { scope: { query: 'meeting' } };
    const mine = here.selectionLabels(selection);
    expect(mine.threads).toBeGreaterThan(0);
    expect(await app.reads.selectionLabels(selection)).toEqual(mine);
    expect(await call(app, 'mail:selectionLabels', { selection })).toEqual(mine);
    const refused = app.reads.selectionLabels({ scope: { folderId: 999_999 } });
    await expect(refused).rejects.toBeInstanceOf(MailError);
    await expect(refused).rejects.toMatchObject({ reason: 'not_found' });
  });

  test('gives what Apply may change as the main thread does', async () => {
    const matched = here.ruleMatches(setId, { kind: 'all' }, rules);
    expect(matched[0]?.slice().sort()).toEqual([...messageIds, idOf('<own@x>')].sort());
    expect(await app.reads.ruleMatches(setId, { kind: 'all' }, rules)).toEqual(matched);
  });

  test('gives search_mail’s hits and read_thread’s blocks as the tools over the main thread give them', async () => {
    const inProcess = new Map(toolsOver(app.db, here).map((t) => [t.name, t]));
    for (const [name, args] of [
      ['search_mail', { query: 'meeting' }],
      ['read_thread', { threadId }],
    ] as const) {
      const tool = inProcess.get(name) as AnyTool;
      const out = await tool.run(tool.schema.parse(args), { signal: new AbortController().signal });
      const mine = { untrusted: out.untrusted === true, output: toolText(out) };
      expect(mine.output).toContain('Budget meeting');
      expect(await runTool(name, args)).toEqual(mine);
    }
  });
});

describe('a refusal on the read thread', () => {
  test('is the MailError the main thread throws for a conversation that is not there', async () => {
    const named = { threadId: 999_999, question: 'What?' };
    expect(() => here.namedSources(named)).toThrow(MailError);
    const refused = app.reads.namedSources(named);
    await expect(refused).rejects.toBeInstanceOf(MailError);
    await expect(refused).rejects.toMatchObject({
      reason: 'not_found',
      message: 'That conversation is not in the mailbox.',
    });
  });

  test('is the DocumentError the main thread throws for a document that is not imported', async () => {
    const refused = app.reads.namedSources({ documentIds: [999_999], question: 'What?' });
    await expect(refused).rejects.toBeInstanceOf(DocumentError);
    await expect(refused).rejects.toMatchObject({ reason: 'not_found' });
  });

  test('is the MailError for a reply to a message that is not there, and the bridge says not_found', async () => {
    await expect(app.reads.replyRequest(999_999, undefined)).rejects.toBeInstanceOf(MailError);
    expect(await callRaw(app, 'draft:aiReply', { message: 999_999, model: 'local/m' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  test('reaches summary:ask as not_found for a document that is not imported', async () => {
    const r = await callRaw(app, 'summary:ask', {
      model: 'local/m',
      question: 'What?',
      documentIds: [999_999],
    });
    expect(r).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  test('is the AssistantError for a question set that is not there, and SearchQueryError for a scope it cannot read', async () => {
    await expect(app.reads.scopeMeasure(999_999, { kind: 'all' })).rejects.toBeInstanceOf(AssistantError);
    const refused = app.reads.ruleSuggestions(setId, { kind: 'query', query: 'has:drive' }, rules);
    await expect(refused).rejects.toBeInstanceOf(SearchQueryError);
  });

  test('is the SearchQueryError search_mail throws on the main thread', async () => {
    await expect(runTool('search_mail', { query: 'has:drive' })).rejects.toBeInstanceOf(SearchQueryError);
  });
});

describe('while a read is held on the read thread', () => {
  // Holds the read thread (see the top), starts `read` behind it, and checks the bridge answers mail:folders
  // while neither has finished; then lets them go and gives what `read` gave.
  async function answeredWhileHeld<T>(read: () => Promise<T>): Promise<T> {
    app.db
      .prepare('DELETE FROM message_warnings WHERE message_id IN (SELECT value FROM json_each(?))')
      .run(JSON.stringify(messageIds));
    app.db.exec('BEGIN IMMEDIATE');
    let settled = false;
    const held = Promise.resolve(app.reads.thread(threadId));
    const started = read();
    void Promise.allSettled([held, started]).then(() => {
      settled = true;
    });
    try {
      const folders = await callRaw(app, 'mail:folders', {});
      expect(folders).toMatchObject({ ok: true });
      // Every task queued so far has run: a read on this thread would have settled.
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
    } finally {
      app.db.exec('COMMIT');
    }
    await held;
    return started;
  }

  test('the bridge answers while mail:thread is held', async () => {
    const r = await answeredWhileHeld(() => callRaw(app, 'mail:thread', { threadId }));
    expect(r).toMatchObject({ ok: true, value: { id: threadId } });
  });

  test('the bridge answers while summary:thread loads its thread', async () => {
    const r = await answeredWhileHeld(() => call(app, 'summary:thread', { threadId, model: 'local/m' }));
    const events = await streamUntil(app, r.streamId, ['summary_done', 'error']);
    expect(events.at(-1)?.type).toBe('summary_done');
  });

  test('the bridge answers while summary:ask loads its mail and documents', async () => {
    const r = await answeredWhileHeld(() =>
      call(app, 'summary:ask', { model: 'local/m', question: 'When?', threadId, documentIds: [documentId] }),
    );
    const end = (await streamUntil(app, r.streamId, ['summary_done', 'error'])).at(-1) as StreamEvent;
    expect(end.type).toBe('summary_done');
  });

  test('the bridge answers while draft:aiReply loads its thread and examples', async () => {
    const r = await answeredWhileHeld(() =>
      call(app, 'draft:aiReply', { message: messageIds[1] as number, model: 'local/m' }),
    );
    const end = (await streamUntil(app, r.streamId, ['draft_reply_done', 'error'])).at(-1) as StreamEvent;
    expect(end.type).toBe('draft_reply_done');
  });

  test('the bridge answers while triage:estimate measures its scope and triage:suggest makes the card', async () => {
    const estimate = await answeredWhileHeld(() =>
      call(app, 'triage:estimate', { setId, scope: { kind: 'all' } }),
    );
    expect(estimate.messages).toBe(3);
    const card = await answeredWhileHeld(() =>
      call(app, 'triage:suggest', { setId, scope: { kind: 'all' }, rules: [...rules] }),
    );
    expect(card[0]?.messages).toHaveLength(3);
  });

  test('the bridge answers while the assistant’s search_mail and read_thread wait for the thread', async () => {
    const found = await answeredWhileHeld(() => runTool('search_mail', { query: 'meeting' }));
    expect(found.output).toContain('Re: Budget meeting');
    const read = await answeredWhileHeld(() => runTool('read_thread', { threadId }));
    expect(read.output).toContain('Tuesday works for the meeting');
  });
});
