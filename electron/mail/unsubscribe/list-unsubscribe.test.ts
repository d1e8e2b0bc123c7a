import { describe, expect, test } from 'vitest';
import { listUris, readUnsubscribeHeaders, unsubscribeLinks } from './list-unsubscribe.ts';

describe('List-Unsubscribe (RFC 2369, RFC 8058)', () => {
  test('reads several URIs in order, skipping comments, whitespace and folding', () => {
    expect(
      listUris(
        '(Use this) <mailto:leave@list.example?subject=unsubscribe>, (or (nested) this)\r\n <https://list.example/u/\r\n 1>',
      ),
    ).toEqual(['mailto:leave@list.example?subject=unsubscribe', 'https://list.example/u/1']);
  });

  test('keeps only https, http and mailto, in parsed form, and one-click only with the exact POST pair', () => {
    expect(
      unsubscribeLinks(
        '<javascript:alert(1)>, <https://user:pw@evil.example/>, <HTTPS://BÜCHER.example/u>',
        'List-Unsubscribe=One-Click',
      ),
    ).toEqual({ https: 'https://xn--bcher-kva.example/u', http: null, mailto: null, oneClick: true });
    expect(unsubscribeLinks('<https://list.example/u>', 'List-Unsubscribe=Yes')?.oneClick).toBe(false);
    expect(unsubscribeLinks('<http://list.example/u>', 'List-Unsubscribe=One-Click')).toEqual({
      https: null,
      http: 'http://list.example/u',
      mailto: null,
      oneClick: false,
    });
  });

  test('garbage offers nothing', () => {
    expect(unsubscribeLinks('https://bare.example/ no brackets <>  <not a uri> <', null)).toBeNull();
    expect(unsubscribeLinks('<ftp://list.example/>', null)).toBeNull();
  });

  test('reads the folded fields from a raw header block, not from the body', () => {
    const raw = Buffer.from(
      'From: a@list.example\r\nList-Unsubscribe: <mailto:leave@list.example>,\r\n <https://list.example/u>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n\r\nList-Unsubscribe: <https://body.example/>\r\n',
    );
    expect(readUnsubscribeHeaders(raw)).toEqual({
      https: 'https://list.example/u',
      http: null,
      mailto: 'mailto:leave@list.example',
      oneClick: true,
    });
    expect(
      readUnsubscribeHeaders(Buffer.from('From: a@b.example\r\n\r\nList-Unsubscribe: <https://x.example/>')),
    ).toBeNull();
  });
});
