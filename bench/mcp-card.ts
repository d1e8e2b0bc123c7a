// From an outside agent's call to the approval card in the app (issue 19): a real `skimmer mcp` process with
// the SDK's client over stdio, whose client cannot ask the user, and the app on the same data folder as
// `skimmer serve` runs it. Per round the agent calls mark_read; the time runs from the call to the app's
// `agent:watch` event that carries the request (what the page renders the card from); then the card is denied
// and the agent's answer timed too.
// Comparison in the same run: a client that declares elicitation, from the call to Skimmer's
// `elicitation/create` reaching it (asking through the protocol alone, no database in between).
//
//   node bench/mcp-card.ts [--rounds 20]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createApp } from '../electron/app.ts';
import { dispatch } from '../electron/bridge/dispatch.ts';
import { startMcp } from '../test/support/mcp-session.ts';
import { round, summary } from './stats.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '20' } },
});
const rounds = Number(values.rounds);
const root = mkdtempSync(join(tmpdir(), 'skimmer-bench-mcp-'));
const mail = join(root, 'mail', 'Inbox');
mkdirSync(mail, { recursive: true });
writeFileSync(
  join(mail, 'a.eml'),
  'From: Ann <ann@example.com>\r\nTo: Bob <bob@example.com>\r\nSubject: Plans\r\nDate: Sun, 29 Nov 2026 10:00:00 +0000\r\nMessage-ID: <a@x>\r\n\r\nHello.\r\n',
);
const dataDir = join(root, 'data');
const app = createApp({ dataDir, mode: 'browser', background: true });
await app.importFiles([mail], () => {}).done;
const id = app.db.prepare('SELECT id FROM messages').pluck().get() as number;

let seen: { at: number; id: number; argsHash: string } | null = null;
app.streams.listen((m) => {
  if (m.event.type === 'agent_requests' && m.event.requests[0] && !seen) {
    const r = m.event.requests[0];
    seen = { at: performance.now(), id: r.id, argsHash: r.call.argsHash };
  }
});
await dispatch(app.handlers, 'agent:watch', {}, true);
const agent = await startMcp(dataDir, { name: 'bench-agent' });

const toCard: number[] = [];
const toAnswer: number[] = [];
const wait = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 2));
};
for (let i = 0; i < rounds; i++) {
  seen = null;
  const start = performance.now();
  const call = agent.client.callTool({ name: 'mark_read', arguments: { ids: [id], read: i % 2 === 0 } });
  await wait(() => seen !== null);
  const card = seen as unknown as { at: number; id: number; argsHash: string };
  toCard.push(card.at - start);
  const answered = performance.now();
  await dispatch(
    app.handlers,
    'agent:answer',
    { id: card.id, argsHash: card.argsHash, decision: 'deny' },
    true,
  );
  await call;
  toAnswer.push(performance.now() - answered);
}
await agent.close();

// The comparison: asking through elicitation, no database and no app in between.
let asked = 0;
const elicitStart: number[] = [];
const toElicit: number[] = [];
const eliciting = await startMcp(dataDir, {
  name: 'bench-eliciting',
  elicit: () => {
    toElicit.push(performance.now() - (elicitStart.at(-1) ?? 0));
    asked += 1;
    return 'decline';
  },
});
for (let i = 0; i < rounds; i++) {
  elicitStart.push(performance.now());
  await eliciting.client.callTool({ name: 'mark_read', arguments: { ids: [id] } });
}
await eliciting.close();
await app.close();
rmSync(root, { recursive: true, force: true });

const card = summary(toCard);
const answer = summary(toAnswer);
const elicit = summary(toElicit);
console.log(
  `call → card in the app (agent:watch event), ms: median ${card.median}, p90 ${card.p90}, max ${card.max}`,
);
console.log(
  `deny on the card → the agent's answer, ms: median ${answer.median}, p90 ${answer.p90}, max ${answer.max}`,
);
console.log(
  `comparison, call → elicitation/create at the client, ms: median ${elicit.median}, max ${elicit.max} (${asked} asked)`,
);
console.log(
  JSON.stringify({
    bench: 'mcp-card',
    rounds,
    callToCardMs: card,
    answerToAgentMs: answer,
    callToElicitationMs: elicit,
    cardVsElicitation: round(card.median / elicit.median),
  }),
);
