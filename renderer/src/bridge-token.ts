// Browser mode (DESIGN §13): the page is opened at `…/#token=T`. The token is removed from the address bar
// so it does not linger in history, screenshots or a copied URL, and kept in this tab's sessionStorage so a
// reload still works (only Skimmer's own scripts run on this origin: see the CSP in electron/csp.ts).
const key = 'skimmer.bridgeToken';

export function takeBridgeToken(): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = params.get('token');
  if (token !== null) {
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    if (token) sessionStorage.setItem(key, token);
  }
  return token || sessionStorage.getItem(key);
}
