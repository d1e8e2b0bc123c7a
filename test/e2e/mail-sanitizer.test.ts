// The mail sanitizer (renderer/src/mail/sanitize-html.ts) run where it runs in the app: bundled as it is and
// called in Debian's Chromium, whose CSS parser and serializer it relies on. One row per way mail HTML can make the
// frame fetch something: what is left that could fetch a remote URL before and after "Load images", and how many
// references the "Load images" notice counts (DESIGN §12: only <img> ever loads remote, with no referrer, no CORS).
import type { Browser, Page } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { projectRoot } from '../../electron/app.ts';
import { launchChromium } from '../support/browser.ts';

const remote = 'https://x.example.net/';
const r = (name: string) => `${remote}${name}`;

type Left = { places: string[]; blocked: number };

let browser: Browser;
let page: Page;
const requests: string[] = [];

async function bundleSanitizer(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root: projectRoot,
    build: {
      write: false,
      minify: false,
      lib: { entry: 'renderer/src/mail/sanitize-html.ts', formats: ['iife'], name: 'MailSanitizer' },
    },
  });
  const [output] = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = output?.output.find((file) => file.type === 'chunk');
  if (!chunk) throw new Error('the sanitizer bundle has no code');
  return chunk.code;
}

beforeAll(async () => {
  const code = await bundleSanitizer();
  browser = await launchChromium();
  const context = await browser.newContext();
  // Sanitizing loads nothing; a request would be a finding of its own.
  await context.route('**/*', (route) => {
    requests.push(route.request().url());
    return route.abort();
  });
  page = await context.newPage();
  await page.addScriptTag({ content: code });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

// Every place in the sanitized result that still names the remote host: `tag attribute` (an <img>'s with its
// referrer policy and CORS mode), `style element` or `body style`.
function remoteLeft(html: string, loadRemote: boolean): Promise<Left> {
  return page.evaluate(
    ({ html, loadRemote, remote }) => {
      const sanitizer = (
        window as unknown as { MailSanitizer: typeof import('../../renderer/src/mail/sanitize-html.ts') }
      ).MailSanitizer;
      const mail = sanitizer.sanitizeMailHtml(html, { loadRemote });
      // A document without a browsing context (like DOMPurify's own): nothing written into it is fetched.
      const { body } = document.implementation.createHTMLDocument('');
      body.innerHTML = mail.html;
      const places: string[] = [];
      for (const element of body.querySelectorAll('*')) {
        for (const attribute of element.attributes) {
          if (!attribute.value.includes(remote)) continue;
          const image =
            element.localName === 'img'
              ? ` (${element.getAttribute('referrerpolicy') ?? 'referrer'}, ${element.getAttribute('crossorigin') === null ? 'no-cors' : 'cors'})`
              : '';
          places.push(`${element.localName} ${attribute.name}${image}`);
        }
      }
      if (mail.css.includes(remote)) places.push('style element');
      if (mail.bodyCss.includes(remote)) places.push('body style');
      return { places, blocked: mail.blockedRemote };
    },
    { html, loadRemote, remote },
  );
}

const image = (attribute: string) => [`img ${attribute} (no-referrer, no-cors)`];

// Ways a remote URL could stay in the result once images are loaded: only an <img> keeps one, asking for no referrer
// and no CORS; CSS, wherever it is written, and background attributes keep none.
// [what, mail HTML, left after "Load images", remote references the "Load images" notice counts]
const rows: [string, string, string[], number][] = [
  ['an img src', `<img src="${r('a.png')}">`, image('src'), 1],
  ['an img srcset', `<img srcset="${r('a.png')} 1x, ${r('b.png')} 2x">`, image('srcset'), 1],
  ['an <image> tag, which HTML parses as <img>', `<image src="${r('a.png')}">`, image('src'), 1],
  ['an img with crossorigin', `<img crossorigin="anonymous" src="${r('a.png')}">`, image('src'), 1],
  [
    'an img asking to send its referrer',
    `<img referrerpolicy="unsafe-url" src="${r('a.png')}">`,
    image('src'),
    1,
  ],
  ['a background in a style attribute', `<div style="background-image:url(${r('a.png')})">x</div>`, [], 0],
  [
    'a background shorthand in a style attribute',
    `<div style="background:#fff url('${r('a')}')">x</div>`,
    [],
    0,
  ],
  ['a cursor', `<div style="cursor:url(${r('c.cur')}),auto">x</div>`, [], 0],
  ['a list-style-image', `<ul style="list-style-image:url(${r('l.png')})"><li>x</li></ul>`, [], 0],
  ['a list-style shorthand', `<ul style="list-style:square url(${r('l.png')})"><li>x</li></ul>`, [], 0],
  ['a border-image', `<div style="border-image:url(${r('b.png')}) 30 round">x</div>`, [], 0],
  ['a -webkit-border-image', `<div style="-webkit-border-image:url(${r('b.png')}) 30">x</div>`, [], 0],
  ['a mask-image (fetched with CORS)', `<div style="mask-image:url(${r('m.svg')})">x</div>`, [], 0],
  ['a mask shorthand', `<div style="mask:url(${r('m.svg')})">x</div>`, [], 0],
  ['a -webkit-mask-image', `<div style="-webkit-mask-image:url(${r('m.svg')})">x</div>`, [], 0],
  ['a -webkit-mask-box-image', `<div style="-webkit-mask-box-image:url(${r('m.png')}) 10">x</div>`, [], 0],
  ['a clip-path (fetched with CORS)', `<div style="clip-path:url(${r('c.svg')}#c)">x</div>`, [], 0],
  [
    'a shape-outside (fetched with CORS)',
    `<div style="float:left;shape-outside:url(${r('s.png')})">x</div>`,
    [],
    0,
  ],
  ['a filter', `<div style="filter:url(${r('f.svg')}#f)">x</div>`, [], 0],
  [
    'an image-set() of url()',
    `<div style="background-image:image-set(url(${r('i.png')}) 1x)">x</div>`,
    [],
    0,
  ],
  [
    'an image-set() of a bare string',
    `<div style="background-image:image-set('${r('i.png')}' 1x)">x</div>`,
    [],
    0,
  ],
  [
    'a -webkit-image-set()',
    `<div style="background-image:-webkit-image-set('${r('i.png')}' 1x)">x</div>`,
    [],
    0,
  ],
  ['an escaped url()', `<div style="background-image:\\75rl(${r('e.png')})">x</div>`, [], 0],
  ['content: url() in a style block', `<style>p::before{content:url(${r('c.png')})}</style><p>x</p>`, [], 0],
  [
    'a background in a style block',
    `<style>.a{background-image:url(${r('a.png')})}</style><p class="a">x</p>`,
    [],
    0,
  ],
  [
    'a background inside @media',
    `<style>@media screen{.a{background:url(${r('a.png')})}}</style><p>x</p>`,
    [],
    0,
  ],
  [
    'a background inside @supports',
    `<style>@supports (color:red){.a{background:url(${r('a')})}}</style>`,
    [],
    0,
  ],
  ['a background in a nested rule', `<style>.a{& .b{background:url(${r('a.png')})}}</style><p>x</p>`, [], 0],
  ['a table background attribute', `<table background="${r('t.png')}"><tr><td>x</td></tr></table>`, [], 0],
  ['a td background attribute', `<table><tr><td background="${r('t.png')}">x</td></tr></table>`, [], 0],
  ['a body background attribute', `<body background="${r('b.png')}"><p>x</p></body>`, [], 0],
];

// Ways that were already closed (removed tags, attributes and rules), kept here so the table covers every fetch path.
const alwaysRemoved: [string, string][] = [
  ['an @import url()', `<style>@import url(${r('i.css')});p{color:red}</style><p>x</p>`],
  ['an @import string', `<style>@import "${r('i.css')}";p{color:red}</style><p>x</p>`],
  ['an @font-face src', `<style>@font-face{font-family:f;src:url(${r('f.woff2')})}</style><p>x</p>`],
  ['a picture source srcset', `<picture><source srcset="${r('p.png')}"><img alt="p"></picture>`],
  ['an input type=image', `<input type="image" src="${r('i.png')}">`],
  ['a video poster', `<video poster="${r('v.png')}" src="${r('v.mp4')}"></video>`],
  ['an SVG image href', `<svg><image href="${r('s.png')}" width="9" height="9"/></svg>`],
  ['an SVG image xlink:href', `<svg><image xlink:href="${r('s.png')}" width="9" height="9"/></svg>`],
  ['a linked stylesheet', `<link rel="stylesheet" href="${r('l.css')}"><p>x</p>`],
  [
    'an object, an embed and an iframe',
    `<object data="${r('o')}"></object><embed src="${r('e')}"><iframe src="${r('f')}"></iframe>`,
  ],
];

describe('sanitizeMailHtml in Chromium', () => {
  test.each(rows)(
    '%s: nothing fetches before "Load images", and after it only an <img>',
    async (_, html, after, counted) => {
      expect({ before: await remoteLeft(html, false), after: await remoteLeft(html, true) }).toEqual({
        before: { places: [], blocked: counted },
        after: { places: after, blocked: 0 },
      });
      expect(requests).toEqual([]);
    },
  );

  test.each(alwaysRemoved)('removes %s, with or without "Load images"', async (_, html) => {
    const removed = { places: [], blocked: 0 };
    expect({ before: await remoteLeft(html, false), after: await remoteLeft(html, true) }).toEqual({
      before: removed,
      after: removed,
    });
    expect(requests).toEqual([]);
  });

  test('keeps data:image backgrounds in CSS and background attributes, which load nothing', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const mail = await page.evaluate(
      (png) =>
        (
          window as unknown as { MailSanitizer: typeof import('../../renderer/src/mail/sanitize-html.ts') }
        ).MailSanitizer.sanitizeMailHtml(
          `<style>.a{background-image:url(${png})}</style><div style="background-image:url('${png}')">x</div><table background="${png}"><tr><td>y</td></tr></table>`,
          { loadRemote: false },
        ),
      png,
    );
    expect(mail.css).toBe(`.a { background-image: url("${png}"); }`);
    expect(mail.html).toBe(
      `<div data-mail-style="background-image: url(&quot;${png}&quot;);">x</div><table background="${png}"><tbody><tr><td>y</td></tr></tbody></table>`,
    );
  });
});
