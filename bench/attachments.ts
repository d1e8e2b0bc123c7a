// Attachments (issue 29 §1), two numbers, each against a comparison measured in the same run:
// 1. A 100-page PDF's first page in the reader's preview, in Debian's Chromium through `skimmer serve`: the click
//    on the chip until page 1 is drawn, with the part not yet read (Skimmer reads the imported file and parses
//    the message) and read before (from the part cache); against pdfjs in the same browser drawing page 1 at the
//    same width from bytes already in memory (no Skimmer at all).
// 2. Saving a 20 MB attachment through browser mode's download route (the GET a Save makes, to a file), uncached
//    and cached; against fs.copyFile of the same 20 MB.
// Usage: node bench/attachments.ts [--rounds 5]
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createApp } from '../electron/app.ts';
import { serve } from '../electron/web/server.ts';
import { attachmentUrl } from '../shared/attachment-urls.ts';
import { mailWithFiles } from '../test/support/attachment-mail.ts';
import { launchChromium } from '../test/support/browser.ts';
import { makePdf } from '../test/support/documents.ts';

// The user's places (safe-open.ts) allow the system's temporary folder, as the tests import from.
const root = mkdtempSync(join(tmpdir(), 'skimmer-bench-attach-'));
let dirs = 0;
const tempDir = (_prefix?: string) => {
  const dir = join(root, String(dirs++));
  mkdirSync(dir);
  return dir;
};

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const rounds = Number(values.rounds ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (x: number) => `${x.toFixed(0)} ms`;

const pdf = await makePdf(Array.from({ length: 100 }, (_, i) => `Page ${i + 1} of the long report`));
const big = randomBytes(20 * 1024 * 1024);
const mail = tempDir('skimmer-bench-attach-');
const eml = (id: string, subject: string, name: string, type: string, body: Buffer) =>
  mailWithFiles(`${id}@bench`, subject, [{ name, type, body }]);
// One message per round, so each round's first open reads a part no round read before.
for (let r = 0; r < rounds; r++)
  writeFileSync(
    join(mail, `pdf-${r}.eml`),
    eml(`pdf${r}`, `Report ${r}`, 'report.pdf', 'application/pdf', pdf),
  );
writeFileSync(join(mail, 'big.eml'), eml('big', 'Big file', 'archive.bin', 'application/octet-stream', big));

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
await app.importFiles([mail], () => {}).done;
const idOf = (id: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(`<${id}@bench>`) as number;
const served = await serve(app);
const browser = await launchChromium();
const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
await page.goto(served.url);

// 1. The preview.
const uncached: number[] = [];
const cached: number[] = [];
let width = 0;
for (let r = 0; r < rounds; r++) {
  await page.getByTestId('search-input').fill(`subject:"Report ${r}"`);
  await page.getByTestId('search-input').press('Enter');
  await page
    .getByTestId('search-hit')
    .filter({ hasText: `Report ${r}` })
    .first()
    .click();
  const chip = page.getByRole('button', { name: 'Preview report.pdf' });
  await chip.waitFor();
  for (const into of [uncached, cached]) {
    const t = performance.now();
    await chip.click();
    await page.locator('[data-testid="pdf-canvas"][data-drawn="1"]').waitFor();
    into.push(performance.now() - t);
    width = await page
      .getByTestId('pdf-canvas')
      .evaluate((c: HTMLCanvasElement) => c.getBoundingClientRect().width);
    await page.keyboard.press('Escape');
    await page.getByTestId('attachment-preview').waitFor({ state: 'detached' });
  }
}

// The comparison: pdfjs alone, in the same browser, the bytes already in memory, page 1 at the same width.
const pdfjsDir = join(import.meta.dirname, '..', 'node_modules', 'pdfjs-dist', 'build');
const bare = createServer((req, res) => {
  const files: Record<string, [string, Buffer | string]> = {
    '/': ['text/html', '<!doctype html><canvas id="c"></canvas>'],
    '/pdf.mjs': ['text/javascript', readFileSync(join(pdfjsDir, 'pdf.min.mjs'))],
    '/pdf.worker.mjs': ['text/javascript', readFileSync(join(pdfjsDir, 'pdf.worker.min.mjs'))],
    '/report.pdf': ['application/pdf', pdf],
  };
  const file = files[req.url ?? ''];
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const barePage = await browser.newPage();
await barePage.goto(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/`);
const fromMemory: number[] = [];
for (let r = 0; r < rounds; r++) {
  fromMemory.push(
    await barePage.evaluate(async (w) => {
      const pdfjs = await import('/pdf.mjs' as string);
      pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
      const bytes = new Uint8Array(await (await fetch('/report.pdf')).arrayBuffer());
      const t = performance.now();
      const task = pdfjs.getDocument({ data: bytes });
      const doc = await task.promise;
      const p = await doc.getPage(1);
      const scale = (w / p.getViewport({ scale: 1 }).width) * devicePixelRatio;
      const viewport = p.getViewport({ scale });
      const canvas = document.getElementById('c') as HTMLCanvasElement;
      canvas.width = viewport.width;
      canvas.height = viewport.height;
      await p.render({ canvas, viewport }).promise;
      const took = performance.now() - t;
      await task.destroy();
      return took;
    }, width),
  );
}

// 2. The save.
const cookie = await (async () => {
  const { pathname, search } = new URL(served.url);
  return new Promise<string>((resolve, reject) => {
    request(
      {
        host: '127.0.0.1',
        port: served.port,
        path: pathname + search,
        headers: { host: `127.0.0.1:${served.port}` },
      },
      (res) => {
        res.resume();
        resolve((res.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '');
      },
    )
      .on('error', reject)
      .end();
  });
})();
const out = tempDir('skimmer-bench-saved-');
mkdirSync(out, { recursive: true });
const source = join(out, 'source.bin');
writeFileSync(source, big);
async function download(to: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    request(
      {
        host: '127.0.0.1',
        port: served.port,
        path: attachmentUrl(idOf('big'), 0),
        headers: { host: `127.0.0.1:${served.port}`, cookie },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`download: ${res.statusCode}`));
        pipeline(res, createWriteStream(to)).then(resolve, reject);
      },
    )
      .on('error', reject)
      .end();
  });
}
const saveFirst: number[] = [];
const saveCached: number[] = [];
const copy: number[] = [];
let t = performance.now();
await download(join(out, 'first.bin'));
saveFirst.push(performance.now() - t);
if (!readFileSync(join(out, 'first.bin')).equals(big)) throw new Error('the saved bytes differ');
for (let r = 0; r < rounds; r++) {
  t = performance.now();
  await download(join(out, `cached-${r}.bin`));
  saveCached.push(performance.now() - t);
  t = performance.now();
  copyFileSync(source, join(out, `copy-${r}.bin`));
  copy.push(performance.now() - t);
}

await browser.close();
bare.close();
await served.close();
await app.close();
rmSync(root, { recursive: true, force: true });

console.log(
  `A 100-page PDF (${(pdf.length / 1024).toFixed(0)} KB) attached to an imported message, ${rounds} rounds (medians):`,
);
console.log(`  preview, page 1 drawn, part not yet read   ${ms(median(uncached))}`);
console.log(`  preview, page 1 drawn, part cached         ${ms(median(cached))}`);
console.log(`  pdfjs alone, bytes in memory, same width   ${ms(median(fromMemory))}`);
console.log('A 20 MB attachment saved through the download route:');
console.log(`  first save (imported file read and parsed) ${ms(median(saveFirst))}`);
console.log(`  save, part cached                          ${ms(median(saveCached))}`);
console.log(`  fs.copyFile of the same 20 MB              ${ms(median(copy))}`);
console.log(
  JSON.stringify({
    bench: 'attachments',
    rounds,
    previewUncachedMs: median(uncached),
    previewCachedMs: median(cached),
    pdfjsFromMemoryMs: median(fromMemory),
    saveFirstMs: median(saveFirst),
    saveCachedMs: median(saveCached),
    copyFileMs: median(copy),
  }),
);
