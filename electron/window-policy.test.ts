import { describe, expect, test } from 'vitest';
import {
  allowNavigation,
  allowPermission,
  allowWebviewAttach,
  appEntry,
  isAppFrame,
  secureWebPreferences,
  windowOpenDecision,
  windowOptions,
} from './window-policy.ts';

// One test per item of Electron's security checklist that applies (electron-anchors §1).
describe('window options (checklist 2, 3, 4, 6, 8, 9, 10, 11)', () => {
  const prefs = secureWebPreferences('/app/preload.cjs');

  test('turn Node off everywhere', () => {
    expect(prefs).toMatchObject({
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
    });
  });
  test('isolate the context and sandbox the renderer', () => {
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true });
  });
  test('keep web security on and insecure content, experimental and Blink features off', () => {
    expect(prefs).toMatchObject({
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });
  test('disable <webview>', () => {
    expect(prefs.webviewTag).toBe(false);
    expect(allowWebviewAttach()).toBe(false);
  });
  test('are what the window is built with', () => {
    expect(windowOptions('/app/preload.cjs').webPreferences).toEqual(prefs);
  });
});

describe('navigation and new windows (checklist 13, 14)', () => {
  test.each([
    'https://evil.example.net/',
    'app://skimmer.evil.example.net/',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'app://skimmer/../../etc',
    appEntry,
  ])('refuses to navigate to %s', (url) => {
    expect(allowNavigation(url)).toBe(false);
  });
  test('never opens a window', () => {
    expect(windowOpenDecision({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(windowOpenDecision({ url: appEntry })).toEqual({ action: 'deny' });
  });
});

describe('permissions (checklist 5)', () => {
  test.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen'])(
    'denies %s',
    (p) => {
      expect(allowPermission(p, 'app://skimmer')).toBe(false);
    },
  );
});

describe('IPC sender (checklist 17)', () => {
  test.each([
    [{ url: 'app://skimmer/index.html', parent: null }, true],
    [{ url: 'app://skimmer/index.html', parent: {} }, false],
    [{ url: 'app://skimmer.evil.net/index.html', parent: null }, false],
    [{ url: 'https://skimmer/index.html', parent: null }, false],
    [{ url: 'about:blank', parent: null }, false],
    [{ url: 'app://evil/skimmer', parent: null }, false],
    [null, false],
  ])('isAppFrame(%j) is %s', (frame, expected) => {
    expect(isAppFrame(frame)).toBe(expected);
  });
});
