// The desktop shell with `electron` mocked (the binary cannot run here): main.ts must wire every guard
// from window-policy.ts, sandbox the app before ready, and route every channel through dispatch.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { channelNames } from '../shared/contract/index.ts';
import { tempDir } from '../test/support/temp.ts';
import { dbFileName } from './data-folder.ts';

// The folder the CLI would use (data-dir.ts reads SKIMMER_DATA_DIR first): the desktop shell must use it too.
const userData = tempDir();
process.env.SKIMMER_DATA_DIR = userData;
const order: string[] = [];
const handlers = new Map<string, (event: unknown, raw: unknown) => Promise<unknown>>();
const contentsListeners = new Map<string, (...args: unknown[]) => void>();
let openHandler: ((d: { url: string }) => unknown) | undefined;
let permissionRequest: ((wc: unknown, p: string, cb: (ok: boolean) => void) => void) | undefined;
let permissionCheck: ((wc: unknown, p: string, origin: string) => boolean) | undefined;
let windowOptions: Record<string, unknown> | undefined;
let loaded: string | undefined;
let webContentsCreated: ((e: unknown, contents: unknown) => void) | undefined;
const dialogCalls: { parent: unknown; options: Record<string, unknown> }[] = [];

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
      // Electron's own idea of the folder is named after package.json: main.ts must not ask for it.
      getPath: (name: string) => {
        throw new Error(`main.ts asked Electron for its ${name} folder`);
      },
      setPath: (name: string, path: string) => order.push(`setPath ${name} ${path}`),
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
    // The user picks two files in the system dialog.
    dialog: {
      showOpenDialog: async (parent: unknown, options: Record<string, unknown>) => {
        dialogCalls.push({ parent, options });
        return { canceled: false, filePaths: ['/home/me/a.mbox', '/home/me/Maildir'] };
      },
    },
  };
});

await import('./main.ts');
await vi.waitFor(() => expect(loaded).toBeDefined());

describe('electron/main.ts', () => {
  test('sandboxes every renderer before the app is ready (checklist 4)', () => {
    expect(order.filter((step) => !step.startsWith('setPath'))).toEqual(['enableSandbox', 'ready']);
  });

  test('keeps its data in the CLI’s data folder, Chromium’s files too, set before the app is ready', () => {
    expect(order.indexOf(`setPath userData ${userData}`)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(`setPath userData ${userData}`)).toBeLessThan(order.indexOf('ready'));
    expect(existsSync(join(userData, dbFileName))).toBe(true);
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

  test('opens the system dialog over the window for files:pick and answers the paths chosen', async () => {
    const handler = handlers.get('files:pick');
    const reply = await handler?.(
      { senderFrame: { url: 'app://skimmer/index.html', parent: null } },
      { purpose: 'mail', kind: 'folders' },
    );
    expect(reply).toEqual({
      ok: true,
      value: { available: true, paths: ['/home/me/a.mbox', '/home/me/Maildir'] },
    });
    expect(dialogCalls).toHaveLength(1);
    expect(dialogCalls[0]?.parent).toBeInstanceOf(Object);
    expect(dialogCalls[0]?.options.properties).toEqual(
      expect.arrayContaining(['openDirectory', 'multiSelections']),
    );
  });
});
