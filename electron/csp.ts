// SECURITY: the app page's Content-Security-Policy, one definition for the desktop app (app:// header)
// and the browser mode (HTTP header) (DESIGN §12). Nothing remote may run, style or connect.
// - style-src 'self' and no inline styles: mail styles reach the mail frame only through CSSOM, after
//   sanitizing (renderer/src/mail/mail-frame-document.ts).
// - img-src allows http(s) only because the mail frame (about:srcdoc) inherits this policy: the frame adds
//   its own, stricter one that blocks remote images until the user asks to load them for one message.
// - img-src blob: is for the reader's attachment preview (issue 29 §1): an image shown from bytes the page read
//   and typed itself as a raster type (renderer/src/reader/AttachmentPreview.tsx). A blob: URL is only ever one
//   the page made: no other origin's blob can be named. The mail frame's own policy does not admit it.
// - worker-src 'self' is for pdfjs's worker (the PDF preview): the app's own file, nothing else (no blob: or
//   data: workers).
// - frame-src 'none' still admits about:srcdoc frames, and stops any frame from navigating to a real
//   address.
export function appCsp(extraConnect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self'",
    `connect-src ${["'self'", ...extraConnect].join(' ')}`,
    "media-src 'none'",
    "frame-src 'none'",
    "worker-src 'self'",
    "manifest-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

// CSP's grammar for a host (CSP3 §2.3.1 host-part): letters, digits and `-`, in labels joined by dots.
const cspHost = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;

/**
 * The bridge socket's sources for a page served on loopback at `port`, one for each name the page may be opened
 * at that CSP can write. It has no way to write an IPv6 literal: `ws://[::1]:PORT` was logged by Chromium as an
 * invalid source, and ignored, on every load. A page opened at [::1] reaches its own socket through 'self',
 * which matches ws: on the page's own host and port (CSP3 §6.7.2.8).
 */
export function socketSources(hostnames: readonly string[], port: number): string[] {
  return hostnames.filter((name) => cspHost.test(name)).map((name) => `ws://${name}:${port}`);
}
