// Electron entry (thin, DESIGN §1): every decision lives in a pure, tested module; this file only wires
// them to Electron. Built to dist-electron/ by `npm run build:electron`.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Notification,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import { channelNames } from '../shared/contract/index.ts';
import { type App, createApp } from './app.ts';
import { contentType, resolveAppPath } from './app-protocol.ts';
import { dispatch } from './bridge/dispatch.ts';
import { appCsp } from './csp.ts';
import { defaultDataDir } from './data-dir.ts';
import { checkExternalUrl } from './external-url.ts';
import { openDialogOptions } from './files/open-dialog.ts';
import { streamChannel } from './preload-api.ts';
import { fileSealer } from './secrets/file-vault.ts';
import { safeStorageSealer } from './secrets/safe-storage.ts';
import { rendererDir } from './web/server.ts';
import {
  allowNavigation,
  allowPermission,
  allowWebviewAttach,
  appEntry,
  appScheme,
  isAppFrame,
  windowOpenDecision,
  windowOptions,
} from './window-policy.ts';

// The CLI's data folder (data-dir.ts), also for Chromium's own files: set before ready, when Electron
// starts using userData. Electron's default would be named after package.json, not the CLI's folder.
const dataDir = defaultDataDir(process.env, process.platform, homedir());
app.setPath('userData', dataDir);

// SECURITY: sandbox every renderer, before anything else (checklist item 4).
app.enableSandbox();
protocol.registerSchemesAsPrivileged([
  { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

// SECURITY: every web contents ever created gets the same guards (checklist 11–14).
app.on('web-contents-created', (_e, contents) => {
  contents.on('will-navigate', (event, url) => {
    if (!allowNavigation(url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame && !allowNavigation(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    if (!allowWebviewAttach()) event.preventDefault();
  });
  contents.setWindowOpenHandler(windowOpenDecision);
});

async function start(): Promise<void> {
  await app.whenReady();
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, permission, callback) => callback(allowPermission(permission)));
  ses.setPermissionCheckHandler((_wc, permission, origin) => allowPermission(permission, origin));

  protocol.handle(appScheme, async (request) => {
    const file = resolveAppPath(rendererDir, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    try {
      return new Response(await readFile(file), {
        headers: { 'content-type': contentType(file), 'content-security-policy': appCsp() },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });

  let win: BrowserWindow | null = null;
  const sealer = (await safeStorageSealer(safeStorage, process.platform)) ?? fileSealer(dataDir);
  const skimmer: App = createApp({
    dataDir,
    mode: 'desktop',
    sealer,
    background: true,
    openExternal: async (url) => {
      // SECURITY: the only call to openExternal in the app, behind the same scheme check as the bridge.
      const checked = checkExternalUrl(url);
      if (checked.ok) await shell.openExternal(checked.url);
    },
    // The system's open dialog, over the window; the paths chosen go on to an import, which opens each under the
    // file rule (files/safe-open.ts), as a typed path.
    pickPaths: async (choice) => {
      const options = openDialogOptions(choice);
      const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return result.canceled ? [] : result.filePaths;
    },
    // Attachments (issue 29 §1): Save to the system's save dialog, Save all to its folder dialog, Open with the
    // system's application (the file written first into a private temporary folder, open-attachment.ts).
    attachmentShell: {
      saveAs: async (name) => {
        const options = { defaultPath: join(app.getPath('downloads'), name) };
        const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
        return result.canceled || !result.filePath ? null : result.filePath;
      },
      chooseFolder: async () => {
        const options = { properties: ['openDirectory' as const, 'createDirectory' as const] };
        const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      openPath: (path) => shell.openPath(path),
    },
    // The new-mail notification the page decided on (shared/new-mail-notice.ts), as plain text; a click brings
    // the window forward.
    notify: ({ title, body }) => {
      if (!Notification.isSupported()) return false;
      const shown = new Notification({ title, body });
      shown.on('click', () => {
        if (win && !win.isDestroyed()) {
          win.show();
          win.focus();
        }
      });
      shown.show();
      return true;
    },
  });

  for (const channel of channelNames) {
    ipcMain.handle(channel, (event, raw) =>
      dispatch(skimmer.handlers, channel, raw, isAppFrame(event.senderFrame), (c, e) =>
        skimmer.log.error(`bridge_${c}`, e),
      ),
    );
  }

  const shown = new BrowserWindow(windowOptions(join(import.meta.dirname, 'preload.cjs')));
  win = shown;
  const unlisten = skimmer.streams.listen((m) => {
    if (!shown.isDestroyed()) shown.webContents.send(streamChannel, m);
  });
  shown.once('ready-to-show', () => shown.show());
  shown.on('closed', unlisten);
  await shown.loadURL(appEntry);

  app.on('window-all-closed', () => {
    void skimmer.close().then(() => app.quit());
  });
}

void start();
