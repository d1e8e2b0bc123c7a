// From `r` to a composer ready to write in (issue 16: "the time from `r` to a ready composer"): the app in
// browser mode on the demo mailbox, the built renderer in Debian's Chromium. Each run presses `r` on an open
// thread and times, inside the page, until the composer's body has the focus and holds the quote (the draft was
// made by the main process: draft:new over the page's WebSocket, shared/compose, SQLite), then Esc closes it
// (an unwritten reply is discarded, so runs do not pile up drafts). Printed beside it: the time to open a
// thread (a click on a row until its messages show), the page's other everyday wait.
//
//   node bench/composer-open.ts [--runs 20]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../electron/app.ts';
import { importDemo } from '../test/support/bridge.ts';
import { openApp } from '../test/support/browser.ts';
import { summary } from './stats.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const runs = Number(values.runs);

const dataDir = mkdtempSync(join(tmpdir(), 'skimmer-bench-'));
const app = createApp({ dataDir, mode: 'browser' });
await importDemo(app);
const foreign: string[] = [];
const { served, browser, page } = await openApp(app, { foreign, viewport: { width: 1280, height: 900 } });

// Times in the page, from the event to the condition, checked every animation frame.
async function timeUntil(start: 'key-r' | 'click-row', rowIndex = 0): Promise<number> {
  return page.evaluate(
    ({ start, rowIndex }) =>
      new Promise<number>((resolve, reject) => {
        const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="thread-row"]')];
        const row = rows[rowIndex];
        const subject = row?.querySelector('.row-subject')?.textContent ?? '';
        const done =
          start === 'key-r'
            ? () => {
                const body = document.querySelector<HTMLTextAreaElement>('[data-testid="composer-body"]');
                const form = document.querySelector('.compose-form[data-ready="true"]');
                return (
                  !!form && !!body && document.activeElement === body && body.value.includes(' wrote:\n> ')
                );
              }
            : () =>
                document.querySelector('.reader-pane .thread-subject')?.textContent ===
                  subject.replace('📎', '') &&
                document.querySelectorAll('.reader-pane [data-testid="message"]').length > 0;
        const t0 = performance.now();
        if (start === 'key-r') {
          document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'r', bubbles: true }));
        } else row?.click();
        const tick = () => {
          if (done()) resolve(performance.now() - t0);
          else if (performance.now() - t0 > 10_000) reject(new Error(`${start} did not finish in 10 s`));
          else requestAnimationFrame(tick);
        };
        tick();
      }),
    { start, rowIndex },
  );
}

await page.locator('[data-testid="thread-row"]').first().waitFor();
const opens: number[] = [];
const composers: number[] = [];
// One warm-up of each, not counted: the first draft:new compiles its statements.
for (let i = -1; i < runs; i++) {
  const open = await timeUntil('click-row', i % 2 === 0 ? 1 : 2);
  await page.locator('.reader-pane').click({ position: { x: 5, y: 5 } });
  const compose = await timeUntil('key-r');
  await page.getByTestId('composer-body').press('Escape');
  await page.getByTestId('composer').waitFor({ state: 'detached' });
  if (i >= 0) {
    opens.push(open);
    composers.push(compose);
  }
}

const r = summary(composers);
const o = summary(opens);
console.log(
  `r to a ready composer (body focused, quote in it), ${runs} runs: median ${r.median} ms, p90 ${r.p90} ms, max ${r.max} ms`,
);
console.log(
  `open a thread (click to its messages shown), ${runs} runs: median ${o.median} ms, p90 ${o.p90} ms, max ${o.max} ms`,
);
if (foreign.length > 0) console.log(`requests outside loopback (aborted): ${foreign.length}`);
console.log(JSON.stringify({ bench: 'composer-open', runs, composer: r, openThread: o }));

await browser.close();
await served.close();
await app.close();
rmSync(dataDir, { recursive: true, force: true });
