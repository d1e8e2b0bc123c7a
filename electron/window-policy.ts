// Every Electron guard as a named pure function (DESIGN §1, §12), so each is unit-tested without the
// Electron binary; main.ts only wires them up. The renderer shows hostile mail, so it is treated as
// hostile: sandboxed, isolated, no Node, no navigation, no new windows, no permissions.
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

export const appScheme = 'app';
export const appHost = 'skimmer';
const appOrigin = `${appScheme}://${appHost}`;
export const appEntry = `${appOrigin}/index.html`;

// SECURITY: each of these is an item of Electron's security checklist; tests assert every one.
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  };
}

export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Skimmer',
    webPreferences: secureWebPreferences(preloadPath),
  };
}

function isAppUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === `${appScheme}:` && u.host === appHost;
  } catch {
    return false;
  }
}

// SECURITY: the app is one page; any navigation (a link in mail, a meta refresh, a drag-and-drop) is
// refused. Links leave only through the confirmation flow and `link:open`.
export function allowNavigation(_url: string): boolean {
  return false;
}

// SECURITY: window.open and target=_blank never create a window.
export function windowOpenDecision(_details: { url: string }): { action: 'deny' } {
  return { action: 'deny' };
}

// SECURITY: camera, microphone, notifications, geolocation, clipboard-read …: the app asks for none,
// so every request and every check is denied, for every origin including ours.
export function allowPermission(_permission: string, _origin?: string): boolean {
  return false;
}

// SECURITY: <webview> is disabled in the preferences; attaching one is refused as well.
export function allowWebviewAttach(): boolean {
  return false;
}

// SECURITY: IPC is answered only for our own page in the main frame (a subframe, such as a mail body
// frame, or any other origin is refused). Checked by parsed origin, never by string prefix.
export function isAppFrame(frame: { url: string; parent: unknown } | null | undefined): boolean {
  if (!frame || frame.parent !== null) return false;
  return isAppUrl(frame.url);
}
