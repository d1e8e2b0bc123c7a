// "Load images" without telling anyone where the mail is read (DESIGN §12): the real server and bridge, the built
// renderer in Debian's Chromium, and a loopback listener that records every request's headers. The message points
// every way HTML and CSS can fetch at the listener. Before "Load images" nothing reaches it; after, only the <img>
// requests do, and none of them carries a Referer or an Origin (which would give away http://127.0.0.1:PORT, the
// app's own address, and that this mail was opened in Skimmer).
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../../electron/app.ts';
import type { Served } from '../../electron/web/server.ts';
import type { StreamMessage } from '../../shared/contract/index.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { tempDir } from '../support/temp.ts';

type Seen = { path: string; headers: IncomingHttpHeaders };

// 1×1 transparent PNG: every answer is a valid image, so nothing fails for want of one.
const pixel = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

// Every request the listener answers, in order.
const seen: Seen[] = [];
const listener: Server = createServer((request, response) => {
  seen.push({ path: request.url ?? '', headers: request.headers });
  response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
  response.end(pixel);
});

// The only requests "Load images" may make: the <img> elements (an <image> tag is parsed as <img>).
const allowed = ['/img-src', '/img-srcset', '/image-tag', '/img-crossorigin', '/img-referrer-override'];

function hostileHtml(at: string): string {
  const u = (path: string) => `${at}${path}`;
  return `<html><head>
<style>
@import url(${u('/style-import-url')});
@import "${u('/style-import-string')}";
@font-face { font-family: leak; src: url(${u('/style-font-face')}) format("woff2"); }
.font { font-family: leak, sans-serif; }
.bg { background-image: url(${u('/style-background')}); }
.bg-short { background: #eee url("${u('/style-background-shorthand')}") no-repeat; }
.cursor { cursor: url(${u('/style-cursor')}), auto; }
.list { list-style-image: url(${u('/style-list-style-image')}); }
.list-short { list-style: square url(${u('/style-list-style')}); }
.border { border: 10px solid; border-image: url(${u('/style-border-image')}) 30 round; }
.border-source { border: 10px solid; border-image-source: url(${u('/style-border-image-source')}); }
.content::before { content: url(${u('/style-content')}); }
.mask { mask-image: url(${u('/style-mask-image')}); }
.mask-short { mask: url(${u('/style-mask')}); }
.webkit-mask { -webkit-mask-image: url(${u('/style-webkit-mask-image')}); }
.webkit-mask-box { -webkit-mask-box-image: url(${u('/style-webkit-mask-box-image')}) 10; }
.clip { clip-path: url(${u('/style-clip-path')}#c); }
.shape { float: left; width: 10px; height: 10px; shape-outside: url(${u('/style-shape-outside')}); }
.filter { filter: url(${u('/style-filter')}#f); }
.image-set { background-image: image-set(url(${u('/style-image-set-url')}) 1x); }
.image-set-string { background-image: image-set("${u('/style-image-set-string')}" 1x); }
.webkit-image-set { background-image: -webkit-image-set(url(${u('/style-webkit-image-set')}) 1x); }
.escaped { background-image: \\75rl(${u('/style-escaped')}); }
@media screen { .media { background-image: url(${u('/style-in-media')}); } }
@supports (display: block) { .supports { background-image: url(${u('/style-in-supports')}); } }
.outer { & .nested { background-image: url(${u('/style-nested')}); } }
</style>
<link rel="stylesheet" href="${u('/link-stylesheet')}">
</head><body background="${u('/body-background')}">
<p class="font">Font</p>
<div class="bg">bg</div><div class="bg-short">bg shorthand</div><div class="cursor">cursor</div>
<ul class="list"><li>list</li></ul><ul class="list-short"><li>list shorthand</li></ul>
<div class="border">border</div><div class="border-source">border source</div>
<div class="content">content</div><div class="mask">mask</div><div class="mask-short">mask</div>
<div class="webkit-mask">webkit mask</div><div class="webkit-mask-box">webkit mask box</div>
<div class="clip">clip</div><div class="shape"></div><div class="filter">filter</div>
<div class="image-set">image-set</div><div class="image-set-string">image-set string</div>
<div class="webkit-image-set">webkit image-set</div><div class="escaped">escaped</div>
<div class="media">media</div><div class="supports">supports</div><div class="outer"><div class="nested">nested</div></div>
<div style="background-image:url(${u('/inline-background')})">inline bg</div>
<div style="background:url('${u('/inline-background-shorthand')}')">inline bg shorthand</div>
<div style="cursor:url(${u('/inline-cursor')}),auto">inline cursor</div>
<ul style="list-style-image:url(${u('/inline-list-style-image')})"><li>inline list</li></ul>
<div style="border:10px solid;border-image:url(${u('/inline-border-image')}) 30 round">inline border</div>
<div style="mask-image:url(${u('/inline-mask-image')})">inline mask</div>
<div style="-webkit-mask-image:url(${u('/inline-webkit-mask-image')})">inline webkit mask</div>
<div style="clip-path:url(${u('/inline-clip-path')}#c)">inline clip</div>
<div style="float:left;width:10px;height:10px;shape-outside:url(${u('/inline-shape-outside')})"></div>
<div style="background-image:image-set('${u('/inline-image-set')}' 1x)">inline image-set</div>
<div style="background-image:-webkit-image-set(url(${u('/inline-webkit-image-set')}) 1x)">inline webkit image-set</div>
<table background="${u('/table-background')}"><tr><td background="${u('/td-background')}">cell</td></tr></table>
<img src="${u('/img-src')}" alt="img">
<img srcset="${u('/img-srcset')} 1x" alt="srcset">
<image src="${u('/image-tag')}" alt="image tag">
<img crossorigin="anonymous" src="${u('/img-crossorigin')}" alt="crossorigin">
<img referrerpolicy="unsafe-url" src="${u('/img-referrer-override')}" alt="referrer override">
<picture><source srcset="${u('/picture-source')}"><img alt="picture"></picture>
<input type="image" src="${u('/input-image')}" alt="input image">
<video poster="${u('/video-poster')}" src="${u('/video-src')}"></video>
<svg width="10" height="10"><image href="${u('/svg-image-href')}" width="10" height="10"/><image xlink:href="${u('/svg-image-xlink')}" width="10" height="10"/></svg>
<object data="${u('/object-data')}"></object><embed src="${u('/embed-src')}"><iframe src="${u('/iframe-src')}"></iframe>
<p>Every fetch path points at the listener.</p>
</body></html>`;
}

function message(at: string): string {
  return [
    'From: Pixel Sender <sender@example.net>',
    'To: Jordan Ellis <jordan.ellis@example.com>',
    'Subject: Every way to fetch an image',
    'Date: Thu, 5 Nov 2026 10:04:00 +0000',
    'Message-ID: <remote-images@example.net>',
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    hostileHtml(at),
    '',
  ].join('\r\n');
}

// Imports files through the bridge, as the page does; resolves on the import's end.
function importFiles(app: App, paths: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const events: StreamMessage[] = [];
    let streamId: string | null = null;
    const check = () => {
      const done = events.find((m) => m.streamId === streamId && m.event.type !== 'import_progress');
      if (!done) return;
      off();
      if (done.event.type === 'import_done' && done.event.summary.imported === paths.length) resolve();
      else reject(new Error(`the import ended with ${JSON.stringify(done.event)}`));
    };
    // Listening first: the import's events may arrive before its streamId is known here.
    const off = app.streams.listen((m) => {
      events.push(m);
      check();
    });
    call(app, 'mail:import', { paths }).then(({ streamId: id }) => {
      streamId = id;
      check();
    }, reject);
  });
}

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let served: Served;
let browser: Browser;
let page: Page;
const foreign: string[] = [];
let listenerOrigin = '';

beforeAll(async () => {
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  listenerOrigin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const file = join(tempDir('skimmer-remote-images-'), 'every-fetch-path.eml');
  writeFileSync(file, message(listenerOrigin));
  await importFiles(app, [file]);
  const opened = await openApp(app, { foreign });
  ({ served, browser, page } = opened);
  // The listener is the one outside address let through (routes run newest first); everything else is still
  // recorded and aborted by openApp's route.
  await opened.context.route(`${listenerOrigin}/**`, (route) => route.continue());
  await page.getByTestId('thread-row').first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app.close();
  listener.closeAllConnections();
  listener.close();
});

describe('Loading remote images', () => {
  test('fetches nothing before "Load images", and after it only the <img> requests, with neither Referer nor Origin', async () => {
    await page.getByTestId('thread-row').first().click();
    const frame = page.frameLocator('[data-testid="mail-frame"]').first();
    await frame.locator('p', { hasText: 'Every fetch path points at the listener.' }).waitFor();
    await page.getByTestId('load-images').waitFor();
    expect(seen.map((s) => s.path)).toEqual([]);

    await page.getByTestId('load-images').click();
    await expect.poll(() => allowed.filter((path) => !seen.some((s) => s.path === path))).toEqual([]);
    // What the frame holds once it is written again with images allowed: no style refers to the listener, and
    // every image asks for no referrer and no CORS.
    const remoteStyles = await frame.locator('body').evaluate((body, origin) => {
      const found = new Set<string>();
      for (const element of body.ownerDocument.querySelectorAll('*')) {
        for (const pseudo of [null, '::before', '::after', '::marker']) {
          const style = getComputedStyle(element, pseudo);
          for (let i = 0; i < style.length; i++) {
            const name = style.item(i);
            if (style.getPropertyValue(name).includes(origin))
              found.add(`${element.localName}${pseudo ?? ''} ${name}`);
          }
        }
      }
      return [...found];
    }, listenerOrigin);
    expect(remoteStyles).toEqual([]);
    const images = await frame
      .locator('img')
      .evaluateAll((all) =>
        all.map((img) => [(img as HTMLImageElement).referrerPolicy, img.getAttribute('crossorigin')]),
      );
    // The <picture>'s <img> is there too, without a source.
    expect(images).toEqual(Array(allowed.length + 1).fill(['no-referrer', null]));
    expect(seen.map((s) => s.path).filter((path) => !allowed.includes(path))).toEqual([]);
    expect(seen.filter((s) => s.headers.referer !== undefined || s.headers.origin !== undefined)).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
