// Renaming a label carried by ~5,000 messages on the store side (issue 29 §4): prepareMailActions().renameLabel,
// which renames the label row, reads the messages to write back and records the Undo entry. Comparison in the same run: the same
// rename done message by message (a new label attached, the old one detached), as a keyword client does it.
// Usage: node bench/labels.ts [--count 5000] [--rounds 5]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../electron/db/open.ts';
import { runImport } from '../electron/mail/import/import-run.ts';
import { prepareLabels } from '../electron/mail/store/labels.ts';
import { prepareLabelsAdmin } from '../electron/mail/store/labels-admin.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { eml } from '../test/support/temp.ts';

const { values } = parseArgs({ options: { count: { type: 'string' }, rounds: { type: 'string' } } });
const count = Number(values.count ?? 5000);
const rounds = Number(values.rounds ?? 5);

// The user's places (safe-open.ts) allow the system's temporary folder, as the tests import from.
const dir = mkdtempSync(join(tmpdir(), 'skimmer-bench-labels-'));
const mail = join(dir, 'mail');
mkdirSync(mail);
for (let i = 0; i < count; i++)
  writeFileSync(
    join(mail, `${i}.eml`),
    eml({ id: `<${i}@bench>`, subject: `Message ${i}`, body: `Body ${i}` }),
  );
const db = openDatabase(join(dir, 'skimmer.db'));
await runImport(db, [mail], { onProgress: () => {}, isCancelled: () => false });
const ids = db.prepare('SELECT id FROM messages').pluck().all() as number[];
if (ids.length !== count) throw new Error(`imported ${ids.length} of ${count} messages`);
const labels = prepareLabels(db);
const admin = prepareLabelsAdmin(db);
const actions = prepareMailActions(db);
let id = labels.ensure('L0').id;
db.transaction(() => {
  for (const m of ids) labels.attach(m, id);
})();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const store: number[] = [];
const perMessage: number[] = [];
for (let r = 1; r <= rounds; r++) {
  let t = performance.now();
  const result = actions.renameLabel(id, `S${r}`);
  store.push(performance.now() - t);
  if (result.changed !== ids.length) throw new Error(`rename reported ${result.changed} messages`);
  t = performance.now();
  db.transaction(() => {
    const next = labels.ensure(`P${r}`).id;
    for (const m of ids) {
      labels.attach(m, next);
      labels.detach(m, id);
    }
    labels.dropIfUnused(id);
    id = next;
  })();
  perMessage.push(performance.now() - t);
}
const total = admin.overview().find((l) => l.id === id)?.total;
if (total !== ids.length) throw new Error(`the label ended on ${total} messages, not ${ids.length}`);

console.log(`${ids.length} messages, ${rounds} rounds`);
console.log(
  `store rename (renameLabel):       median ${median(store).toFixed(2)} ms, max ${Math.max(...store).toFixed(2)} ms`,
);
console.log(
  `message by message (add + remove): median ${median(perMessage).toFixed(2)} ms, max ${Math.max(...perMessage).toFixed(2)} ms`,
);
console.log(`ratio: ${(median(perMessage) / median(store)).toFixed(1)}×`);
console.log(
  JSON.stringify({
    bench: 'labels',
    messages: ids.length,
    rounds,
    storeMs: median(store),
    perMessageMs: median(perMessage),
  }),
);
db.close();
rmSync(dir, { recursive: true, force: true });
