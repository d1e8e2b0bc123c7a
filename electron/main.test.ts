// The desktop shell with `electron` mocked (the binary cannot run here): main.ts must wire every guard
// from window-policy.ts, sandbox the app before ready, and route every channel through dispatch.
import { describe, expect, test, vi } from 'vitest';
import { channelNames } from '../shared/contract.ts';
import { tempDir } from '../test/support/temp.ts';

const userData = tempDir();
const order: string[] = [];
const handlers = new Map<string, (event: unknown, raw: unknown) => Promise<unknown>>();
const contentsListeners = new Map<string, (...args: unknown[]) => void>();
let openHandler: ((d: { url: string }) => unknown) | undefined;
let permissionRequest: ((wc: unknown, p: string, cb: (ok: boolean) => void) => void) | undefined;
let permissionCheck: ((wc: unknown, p: string, origin: string) => boolean) | undefined;
let windowOptions: Record<string, unknown> | undefined;
let loaded: string | undefined;
let webContentsCreated: ((e: unknown, contents: unknown) => void) | undefined;

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = { send: vi.fn() };
    constructor(options: Record<string, unknown>) {
      windowOptions = options;
    }
    once() {}
    on() {}
    isDestroyed() {
      return false;
    }
    async loadURL(url: string) {
      loaded = url;
    }
  }
  return {
    app: {
      enableSandbox: () => order.push('enableSandbox'),
      whenReady: async () => {
        order.push('ready');
      },
      on: (name: string, fn: (e: unknown, c: unknown) => void) => {
        if (name === 'web-contents-created') webContentsCreated = fn;
      },
      getPath: () => userData,
      quit: vi.fn(),
    },
    BrowserWindow,
    ipcMain: {
      handle: (channel: string, fn: (e: unknown, r: unknown) => Promise<unknown>) =>
        handlers.set(channel, fn),
    },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    safeStorage: {
      isAsyncEncryptionAvailable: async () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptStringAsync: async (s: string) => Buffer.from(s).reverse(),
      decryptStringAsync: async (b: Buffer) => ({
        result: Buffer.from(b).reverse().toString(),
        shouldReEncrypt: false,
      }),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: typeof permissionRequest) => {
          permissionRequest = fn;
        },
        setPermissionCheckHandler: (fn: typeof permissionCheck) => {
          permissionCheck = fn;
        },
      },
    },
    shell: { openExternal: vi.fn(async () => {}) },
  };
});

await import('./main.ts');
await vi.waitFor(() => expect(loaded).toBeDefined());

describe('electron/main.ts', () => {
  test('sandboxes every renderer before the app is ready (checklist 4)', () => {
    expect(order.slice(0, 2)).toEqual(['enableSandbox', 'ready']);
  });

  test('loads the app from app://, never file:// (checklist 1, 18)', () => {
    expect(loaded).toBe('app://skimmer/index.html');
    expect(windowOptions?.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true });
  });

  test('denies every permission request and check (checklist 5)', () => {
    const answers: boolean[] = [];
    permissionRequest?.({}, 'media', (ok) => answers.push(ok));
    expect(answers).toEqual([false]);
    expect(permissionCheck?.({}, 'notifications', 'app://skimmer')).toBe(false);
  });

  test('guards every web contents: navigation, frames, webviews and new windows (checklist 11–14)', () => {
    const contents = {
      on: (name: string, fn: (...a: unknown[]) => void) => contentsListeners.set(name, fn),
      setWindowOpenHandler: (fn: typeof openHandler) => {
        openHandler = fn;
      },
    };
    webContentsCreated?.({}, contents);
    for (const name of ['will-navigate', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() };
      contentsListeners.get(name)?.(event, 'https://evil.example.net/');
      expect(event.preventDefault).toHaveBeenCalled();
    }
    const frameEvent = { preventDefault: vi.fn(), isMainFrame: true, url: 'https://evil.example.net/' };
    contentsListeners.get('will-frame-navigate')?.(frameEvent);
    expect(frameEvent.preventDefault).toHaveBeenCalled();
    expect(openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });

  test('registers exactly the contract channels, each checking its sender (checklist 17)', async () => {
    expect([...handlers.keys()].sort()).toEqual([...channelNames].sort());
    const handler = handlers.get('app:info');
    const fromSubframe = await handler?.(
      { senderFrame: { url: 'app://skimmer/index.html', parent: {} } },
      {},
    );
    expect(fromSubframe).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const fromApp = await handler?.({ senderFrame: { url: 'app://skimmer/index.html', parent: null } }, {});
    expect(fromApp).toMatchObject({
      ok: true,
      value: { mode: 'desktop', vault: { backend: 'safe-storage', protection: 'encrypted' } },
    });
  });
});
