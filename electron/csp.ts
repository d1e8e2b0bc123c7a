// SECURITY: the app page's Content-Security-Policy, one definition for the desktop app (app:// header)
// and the browser mode (HTTP header) (DESIGN §12). Nothing remote may run, style or connect.
// - style-src 'self' and no inline styles: mail styles reach the mail frame only through CSSOM, after
//   sanitizing (renderer/src/mail/mail-frame-document.ts).
// - img-src allows http(s) only because the mail frame (about:srcdoc) inherits this policy: the frame adds
//   its own, stricter one that blocks remote images until the user asks to load them for one message.
// - frame-src 'none' still admits about:srcdoc frames, and stops any frame from navigating to a real
//   address.
export function appCsp(extraConnect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https: http:",
    "font-src 'self'",
    `connect-src ${["'self'", ...extraConnect].join(' ')}`,
    "media-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
