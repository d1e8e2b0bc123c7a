// Which hosts are this computer (127.0.0.0/8, ::1, localhost). Used wherever loopback is the line a
// request or a server may not cross: the browser mode binds only to these, and a model service may use
// plain http only on these. Pure (no node:net) so the renderer's hints use the same rule; URL hostnames
// arrive normalised (`127.1` and `2130706433` become `127.0.0.1`).
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return host.startsWith('127.');
  return host === '::1';
}

// The names a page Skimmer serves on loopback may be opened at, as they appear in a Host header and an
// origin. The browser mode accepts exactly these in Host and Origin, and its CSP lets the page connect to
// the bridge at exactly these: one list, so the two cannot disagree.
export const servedHostnames = ['127.0.0.1', 'localhost', '[::1]'] as const;
