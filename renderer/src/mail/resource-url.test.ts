import { describe, expect, test } from 'vitest';
import { classifyResource, cleanUrl, imageReference, parseSrcset, styleReference } from './resource-url.ts';

describe('classifyResource', () => {
  test.each([
    ['https://evil.example.net/a.png', { kind: 'remote', url: 'https://evil.example.net/a.png' }],
    ['HTTP://EVIL.EXAMPLE.NET/a.png', { kind: 'remote', url: 'http://evil.example.net/a.png' }],
    ['//evil.example.net/pixel.gif', { kind: 'remote', url: 'https://evil.example.net/pixel.gif' }],
    ['  https://evil.example.net:8443/x  ', { kind: 'remote', url: 'https://evil.example.net:8443/x' }],
    ['ht\ntps://evil.example.net/split', { kind: 'remote', url: 'https://evil.example.net/split' }],
    ['data:image/png;base64,iVBORw0KGgo=', { kind: 'inline', url: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['data:image/svg+xml,<svg/>', { kind: 'inline', url: 'data:image/svg+xml,<svg/>' }],
    ['data:text/html,<script>alert(1)</script>', { kind: 'unusable' }],
    ['cid:logo@example.com', { kind: 'part', id: 'logo@example.com' }],
    ['CID:%3CLogo@Example.com%3E', { kind: 'part', id: 'logo@example.com' }],
    ['cid:', { kind: 'unusable' }],
    ['images/logo.png', { kind: 'unusable' }],
    ['/absolute/path.png', { kind: 'unusable' }],
    ['javascript:alert(1)', { kind: 'unusable' }],
    ['file:///etc/passwd', { kind: 'unusable' }],
    ['https://', { kind: 'unusable' }],
  ])('judges %j', (raw, verdict) => {
    expect(classifyResource(raw)).toEqual(verdict);
  });
});

describe('where a reference may load', () => {
  const png = 'data:image/png;base64,iVBORw0KGgo=';
  const none = { url: null, blocked: false };
  // [reference, kept by CSS, an <img> before "Load images", an <img> after]
  test.each([
    [
      'https://x.example.net/a.png',
      null,
      { url: null, blocked: true },
      { url: 'https://x.example.net/a.png', blocked: false },
    ],
    [
      '//x.example.net/a.png',
      null,
      { url: null, blocked: true },
      { url: 'https://x.example.net/a.png', blocked: false },
    ],
    [png, png, { url: png, blocked: false }, { url: png, blocked: false }],
    ['cid:unknown@example.com', null, { url: null, blocked: true }, none],
    ['/relative.png', null, none, none],
    ['javascript:alert(1)', null, none, none],
  ])('%j: CSS keeps %j; an <img> keeps %j, and after "Load images" %j', (raw, css, before, after) => {
    expect({
      css: styleReference(raw),
      before: imageReference(raw, false),
      after: imageReference(raw, true),
    }).toEqual({
      css,
      before,
      after,
    });
  });
});

describe('a cid: image (a part of the message itself)', () => {
  const parts = new Map([['logo@example.com', 'blob:http://127.0.0.1:1/abc']]);
  test('waits for "Load images", then shows the blob: URL the page made of the part', () => {
    expect(imageReference('cid:logo@example.com', false, parts)).toEqual({ url: null, blocked: true });
    expect(imageReference('cid:Logo@Example.com', true, parts)).toEqual({
      url: 'blob:http://127.0.0.1:1/abc',
      blocked: false,
    });
  });
  test('CSS never loads one', () => {
    expect(styleReference('cid:logo@example.com')).toBeNull();
  });
});

test('cleanUrl strips what the URL parser strips and nothing else', () => {
  expect(cleanUrl('\u0000 jav\tascr\nipt:x \u001f')).toBe('javascript:x');
  expect(cleanUrl('https://a.example/b c')).toBe('https://a.example/b c');
});

describe('parseSrcset', () => {
  test('splits candidates and keeps their descriptors', () => {
    expect(parseSrcset('a.png 1x, https://x.example/b.png 2x')).toEqual([
      { url: 'a.png', descriptor: '1x' },
      { url: 'https://x.example/b.png', descriptor: '2x' },
    ]);
  });

  test('keeps the commas inside a data URL', () => {
    expect(parseSrcset('data:image/png;base64,AAA= 1x,b.png 2x')).toEqual([
      { url: 'data:image/png;base64,AAA=', descriptor: '1x' },
      { url: 'b.png', descriptor: '2x' },
    ]);
  });

  test('ends a candidate at trailing commas when it has no descriptor', () => {
    expect(parseSrcset('a.png,, b.png')).toEqual([
      { url: 'a.png', descriptor: '' },
      { url: 'b.png', descriptor: '' },
    ]);
  });
});
