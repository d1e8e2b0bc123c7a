// The app:// protocol (instead of file://): maps a request URL to a file inside the built renderer
// folder, or null. Pure, so path traversal is tested without Electron.
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { appHost, appScheme } from './window-policy.ts';

export function resolveAppPath(root: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${appScheme}:` || url.host !== appHost) return null;
  return resolveInside(root, url.pathname);
}

// Maps a URL path (still percent-encoded) to a file under root, or null. Shared by app:// and the
// browser mode's static server.
export function resolveInside(root: string, urlPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  // SECURITY: after decoding, refuse NUL, backslashes and anything that resolves outside the root.
  if (path.includes('\0') || path.includes('\\') || !path.startsWith('/')) return null;
  const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return null;
  return file;
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  // pdfjs's worker (the attachment preview) is built as .mjs; a module worker must be served as JavaScript.
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export function contentType(file: string): string {
  return types[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
