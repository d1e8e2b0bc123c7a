// The app page's Content-Security-Policy, one definition for the desktop app (app:// header) and the
// browser mode (HTTP header). No remote scripts, styles, fonts or connections, ever.
//
// img-src allows remote images only because a mail body frame (srcdoc) inherits this policy: the frame
// adds its own stricter one that blocks every remote load until the user clicks "Load images" for that
// message, and the sanitizer strips remote references until then as well.
export function appCsp(extraConnect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https: http:",
    "font-src 'self'",
    `connect-src ${["'self'", ...extraConnect].join(' ')}`,
    "frame-src 'self' about: blob:",
    "media-src 'none'",
    "object-src 'none'",
    "worker-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
