import { describe, expect, test } from 'vitest';
import { servedHostnames } from '../shared/loopback.ts';
import { appCsp, socketSources } from './csp.ts';

// Checklist item 7: a restrictive CSP.
describe('appCsp', () => {
  const directives = new Map(
    appCsp(['ws://127.0.0.1:1234'])
      .split('; ')
      .map((d) => {
        const [name, ...values] = d.split(' ');
        return [name, values] as const;
      }),
  );

  test('runs, styles and connects only to the app itself (plus the bridge socket)', () => {
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:1234']);
    expect(directives.get('default-src')).toEqual(["'self'"]);
  });

  test('has no unsafe-inline or unsafe-eval anywhere', () => {
    expect(appCsp()).not.toMatch(/unsafe-(inline|eval)/);
  });

  test('admits workers and blob: images only from the app itself (pdfjs, the attachment preview)', () => {
    expect(directives.get('worker-src')).toEqual(["'self'"]);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https:', 'http:']);
  });

  test.each(['object-src', 'base-uri', 'form-action', 'frame-src', 'frame-ancestors'])(
    'sets %s to none',
    (name) => {
      expect(directives.get(name)).toEqual(["'none'"]);
    },
  );

  test('names the bridge socket at each served name CSP can write, and leaves [::1] to self', () => {
    expect(socketSources(servedHostnames, 1234)).toEqual(['ws://127.0.0.1:1234', 'ws://localhost:1234']);
    // Every source is one CSP3's grammar reads (a keyword, or scheme://host:port): none is ignored as invalid.
    const connect = appCsp(socketSources(servedHostnames, 1234))
      .split('; ')
      .find((d) => d.startsWith('connect-src '))
      ?.split(' ')
      .slice(1);
    expect(connect).toEqual(["'self'", 'ws://127.0.0.1:1234', 'ws://localhost:1234']);
    for (const source of connect ?? []) {
      expect(source).toMatch(/^('self'|[a-z][a-z0-9+.-]*:\/\/[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*:\d+)$/);
    }
  });
});
