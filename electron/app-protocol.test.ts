import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { contentType, resolveAppPath } from './app-protocol.ts';

const root = '/opt/skimmer/dist/renderer';

describe('app:// protocol (checklist 18)', () => {
  test.each([
    ['app://skimmer/', join(root, 'index.html')],
    ['app://skimmer/index.html', join(root, 'index.html')],
    ['app://skimmer/assets/app-1.js', join(root, 'assets/app-1.js')],
    ['app://skimmer/assets/a%20b.css', join(root, 'assets/a b.css')],
  ])('serves %s from the renderer folder', (url, file) => {
    expect(resolveAppPath(root, url)).toBe(file);
  });

  // The URL parser already folds dot segments, so these land inside the root, never above it.
  test.each(['app://skimmer/../../etc/passwd', 'app://skimmer/%2e%2e/%2e%2e/etc/passwd'])(
    'keeps %s inside the renderer folder',
    (url) => {
      expect(resolveAppPath(root, url)).toBe(join(root, 'etc/passwd'));
    },
  );

  test.each([
    'app://skimmer/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    'app://skimmer/..%5c..%5cwindows',
    'app://skimmer/index.html%00.js',
    'app://skimmer/%E0%A4%A',
    'app://other/index.html',
    'file:///etc/passwd',
    'not a url',
  ])('refuses %s', (url) => {
    expect(resolveAppPath(root, url)).toBeNull();
  });

  test('names the content types the renderer build uses', () => {
    expect(contentType('a.js')).toBe('text/javascript; charset=utf-8');
    expect(contentType('a.html')).toBe('text/html; charset=utf-8');
    expect(contentType('a.unknown')).toBe('application/octet-stream');
  });
});
