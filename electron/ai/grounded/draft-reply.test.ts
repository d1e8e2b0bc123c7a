// A drafted reply against a real local Chat Completions server answering from fixtures/draft-reply/: the
// thread reaches the model as untrusted sources and the user's own mails as context it cannot cite; the
// answer is checked as a grounded answer is; the marks leave the text; made-up amounts and dates are listed.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { notCited, unverifiedFacts } from '../../../shared/compose/thread-facts.ts';
import type { MessageView } from '../../../shared/contract/index.ts';
import { projectRoot } from '../../app.ts';
import { groundedBounds } from './bounds.ts';
import { draftReply, type ReplyRequest } from './draft-reply.ts';

let server: Server;
let base = '';
const seen: { messages: { role: string; content: string }[] }[] = [];
let content = '';

const fixture = (name: string) =>
  readFileSync(join(projectRoot, 'fixtures', 'draft-reply', `${name}.json`), 'utf8');

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    seen.push(JSON.parse(raw));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const connection = () => ({ kind: 'openai' as const, baseUrl: base, key: null });

const message = (id: number, text: string, date: number): MessageView => ({
  id,
  messageId: `<m${id}@example.com>`,
  threadId: 7,
  folderId: 1,
  subject: 'Budget for Q3',
  from: { name: 'Priya Raman', address: 'priya@example.com' },
  to: [{ name: 'Bob', address: 'bob@example.com' }],
  cc: [],
  date,
  text,
  html: null,
  attachments: [],
  unread: false,
  starred: false,
  syncError: null,
  warnings: [],
});

const thread = [
  message(41, 'Can we agree a budget of 40k for Q3?', Date.UTC(2026, 10, 28)),
  message(
    42,
    'And can we meet on 14 December at 15:00 to sign? Ask carol@else.example too.',
    Date.UTC(2026, 10, 29),
  ),
];
const request = (over: Partial<ReplyRequest> = {}): ReplyRequest => ({
  thread,
  answering: 42,
  examples: [{ id: 'example1', text: 'Cheers, sounds good. B' }],
  ...over,
});

describe('draftReply', () => {
  test('sends the thread as sources, the examples as context, the instructions as the user turn', async () => {
    content = fixture('good');
    await draftReply(connection(), 'local', request({ instructions: 'say yes to the 14th' }));
    const [system, user] = seen.at(-1)?.messages ?? [];
    expect(system?.content).toContain('source="source:m41"');
    expect(system?.content).toContain('source="source:m42"');
    expect(system?.content).toContain('source="context:example1"');
    expect(system?.content).toContain('Cheers, sounds good. B');
    expect(system?.content).toContain('reply to the message m42');
    expect(user).toEqual({ role: 'user', content: 'Draft my reply. My instructions: say yes to the 14th' });
  });

  test('a cited draft: the marks out of the text, each citation a message, nothing unverified', async () => {
    content = fixture('good');
    const drafted = await draftReply(connection(), 'local', request());
    expect(drafted.text).toBe(
      'Hi Priya,\n\nYes, $40,000 works for us, and Dec 14 at 3pm suits me.\n\nBest,\nBob',
    );
    expect(drafted.cited).toBe(true);
    expect(drafted.citations.map((c) => c.messageId)).toEqual([41, 42]);
    expect(drafted.unverified).toEqual([]);
    expect(drafted.note).toBeNull();
  });

  test('lists an amount and a date the messages cited do not hold', async () => {
    content = fixture('made-up-amount');
    const drafted = await draftReply(connection(), 'local', request());
    expect(drafted.unverified).toEqual([
      { text: '$45,000', reason: notCited },
      { text: 'Dec 20', reason: notCited },
    ]);
  });

  test('counts a fact as found only in a message its sentence cites: an IBAN from a hostile message is flagged', async () => {
    // m42 is the genuine request; m43 is someone else's, with an IBAN of their own and an "updated" invoice.
    const hostile = [
      message(41, 'Can we agree a budget of 40k for Q3?', Date.UTC(2026, 10, 28)),
      message(
        42,
        'Please pay invoice INV-2231 to DE12 5001 0517 0648 4898 90 by Dec 14.',
        Date.UTC(2026, 10, 29),
      ),
      message(
        43,
        'Correction: pay INV97531, EUR97531, to DE89 3704 0044 0532 0130 00 instead, twelve thousand euros.',
        Date.UTC(2026, 10, 30),
      ),
    ];
    content = JSON.stringify({
      answer: [
        'Hi Priya,',
        '',
        'We will pay INV97531 to DE89 3704 0044 0532 0130 00 by Dec 14 [m42].',
        'That is EUR97531, twelve thousand euros [m42].',
        'The budget of 40k stands [m41].',
        'We will also send ５００ dollars.',
        '',
        'Bob',
      ].join('\n'),
      citations: ['m42', 'm41'],
    });
    const drafted = await draftReply(connection(), 'local', request({ thread: hostile, answering: 42 }));
    const flagged = [
      { text: 'INV97531', reason: notCited },
      { text: 'DE89 3704 0044 0532 0130 00', reason: notCited },
      { text: 'EUR97531', reason: notCited },
      { text: 'twelve thousand', reason: notCited },
      // No citation in its sentence: found in no message cited for it.
      { text: '５００', reason: notCited },
    ];
    expect(drafted.unverified).toEqual(flagged);
    // The composer checks the body against `known`: the same facts flagged there, the cited ones not.
    expect(unverifiedFacts(drafted.text, drafted.known)).toEqual(flagged);
    expect(drafted.known).toContain('n:40000');
    expect(drafted.known).toContain('c:DE12500105170648489890');
    expect(drafted.known).not.toContain('c:DE89370400440532013000');
  });

  test('a fact cited from the message that holds it is found, whichever message the next sentence cites', async () => {
    const hostile = [
      message(42, 'Please pay to DE12 5001 0517 0648 4898 90.', Date.UTC(2026, 10, 29)),
      message(43, 'Or pay to DE89 3704 0044 0532 0130 00 instead.', Date.UTC(2026, 10, 30)),
    ];
    content = JSON.stringify({
      answer: 'We will pay to DE89 3704 0044 0532 0130 00 [m43]. Thanks for the details [m42].',
      citations: ['m43', 'm42'],
    });
    const drafted = await draftReply(connection(), 'local', request({ thread: hostile, answering: 42 }));
    expect(drafted.unverified).toEqual([]);
    expect(unverifiedFacts(drafted.text, drafted.known)).toEqual([]);
  });

  test('a fact in a message cited only by another sentence is flagged, in the composer too', async () => {
    const hostile = [
      message(42, 'Please pay to DE12 5001 0517 0648 4898 90.', Date.UTC(2026, 10, 29)),
      message(43, 'Or pay to DE89 3704 0044 0532 0130 00 instead.', Date.UTC(2026, 10, 30)),
    ];
    content = JSON.stringify({
      answer: 'We will pay to DE89 3704 0044 0532 0130 00 [m42]. Thanks for the update [m43].',
      citations: ['m42', 'm43'],
    });
    const drafted = await draftReply(connection(), 'local', request({ thread: hostile, answering: 42 }));
    const flagged = [{ text: 'DE89 3704 0044 0532 0130 00', reason: notCited }];
    expect(drafted.unverified).toEqual(flagged);
    expect(unverifiedFacts(drafted.text, drafted.known)).toEqual(flagged);
    expect(unverifiedFacts('Paid to DE12 5001 0517 0648 4898 90.', drafted.known)).toEqual([]);
  });

  test('refuses a citation of a message outside the thread', async () => {
    content = fixture('cites-outside');
    await expect(draftReply(connection(), 'local', request())).rejects.toMatchObject({
      code: 'bad_answer',
      providerDetail: expect.stringContaining('m99'),
    });
  });

  test('refuses an inline citation missing from the list', async () => {
    content = fixture('inline-not-listed');
    await expect(draftReply(connection(), 'local', request())).rejects.toMatchObject({ code: 'bad_answer' });
  });

  test('an answer without citations is an uncited draft', async () => {
    content = fixture('uncited');
    const drafted = await draftReply(connection(), 'local', request());
    expect(drafted).toMatchObject({ cited: false, citations: [] });
  });

  test('refuses instructions over their bound before any request, naming it', async () => {
    const before = seen.length;
    await expect(
      draftReply(
        connection(),
        'local',
        request({ instructions: 'x'.repeat(groundedBounds.questionBytes + 1) }),
      ),
    ).rejects.toMatchObject({ code: 'invalid_request', providerDetail: expect.stringContaining('2 KiB') });
    expect(seen.length).toBe(before);
  });

  test('leaves the oldest messages out of a thread over the bounds and says so', async () => {
    content = JSON.stringify({ answer: 'Yes [m49].', citations: ['m49'] });
    const long = Array.from({ length: 10 }, (_, i) =>
      message(40 + i, `Message ${i}: ${'words '.repeat(500)}`, Date.UTC(2026, 10, 1 + i)),
    );
    const drafted = await draftReply(connection(), 'local', request({ thread: long, answering: 49 }));
    const system = seen.at(-1)?.messages[0]?.content ?? '';
    expect(system).toContain('source="source:m49"');
    expect(system).not.toContain('source="source:m40"');
    expect(drafted.note).toMatch(
      /\(8 sources, 32 KiB together\), 2 of 10 messages of the thread were left out/,
    );
  });
});
