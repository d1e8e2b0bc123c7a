// A new user's first account, end to end (issue 28): the address alone, the settings found from it (an
// autoconfig file on the tests' own HTTPS server, found through the tests' own DNS server), shown with where they
// came from; "Sign in" on the local OpenID provider's page, which the test fills in in the tab the page opened;
// and the mail from Dovecot (its oauth2 passdb checking the token at that provider) in the list without a reload.
// Also: settings that came over plain HTTP are marked and stop Sign in until the person ticks them; the
// provider's "Cancel" (error=access_denied) and the form's Cancel each end the wait with a sentence; an address
// nothing is found for says so and leaves "Set up by hand". Real components on loopback; the only requests
// outside the app's origin the browser may make are the provider's and Skimmer's loopback redirect listener's.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp, projectRoot } from '../../electron/app.ts';
import { discoverHandlers } from '../../electron/bridge/handlers/discover.ts';
import type { Served } from '../../electron/web/server.ts';
import { call } from '../support/bridge.ts';
import { openApp } from '../support/browser.ts';
import { resolverFor, startDnsServer } from '../support/dns-server.ts';
import { type Dovecot, startDovecot } from '../support/dovecot.ts';
import { startHttpServer, startHttpsServer } from '../support/https-server.ts';
import { type OidcServer, startOidc } from '../support/oidc.ts';
import { eml, tempDir } from '../support/temp.ts';
import { startTestCa } from '../support/test-ca.ts';

const shots = join(projectRoot, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

const user = 'ana@signin.test';
const seeded = [
  { id: '<welcome@signin.test>', subject: 'Welcome to your mailbox' },
  { id: '<plan@signin.test>', subject: 'The plan for Thursday' },
];

let idp: OidcServer;
let dovecot: Dovecot;
let app: App;
let served: Served;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const foreign: string[] = [];
// Origins the test lets the browser reach besides the app's: the provider, and each redirect listener the
// sign-in's address names (read from its redirect_uri as the provider's page is opened).
const allowed = new Set<string>();

const autoconfig = (o: { imapPort: number; issuer: string }) =>
  `<clientConfig version="1.1"><emailProvider id="signin.test">
    <incomingServer type="imap"><hostname>127.0.0.1</hostname><port>${o.imapPort}</port>
      <socketType>plain</socketType><username>%EMAILADDRESS%</username><authentication>OAuth2</authentication>
    </incomingServer>
  </emailProvider><oAuth2><issuer>${o.issuer}</issuer></oAuth2></clientConfig>`;

beforeAll(async () => {
  // Access tokens that live a minute: within the refresh margin from the start, so every login of the sync
  // refreshes first, as an expiring token would be, without the person seeing anything of it.
  idp = await startOidc({ accessTokenTtl: 60 });
  dovecot = await startDovecot({
    users: [{ user, pass: 'not-given-to-skimmer' }],
    oauth2: { introspectionUrl: idp.introspection.withCredentials },
  });
  await dovecot.append(
    'INBOX',
    seeded.map((m, i) => eml({ ...m, date: `Tue, 1 Dec 2026 0${i + 8}:00:00 +0000`, body: 'Hello.' })),
    [],
    user,
  );
  const ca = startTestCa();
  const [dns, web, plain] = await Promise.all([
    startDnsServer({
      a: {
        'autoconfig.signin.test': '127.0.0.1',
        'autoconfig.plain.test': '127.0.0.1',
        'autoconfig.northwind.test': '127.0.0.1',
        'autoconfig.slow.test': '127.0.0.1',
      },
    }),
    startHttpsServer(ca, [
      'autoconfig.signin.test',
      'autoconfig.plain.test',
      'autoconfig.northwind.test',
      'autoconfig.slow.test',
    ]),
    startHttpServer(),
  ]);
  web.serve(
    'autoconfig.signin.test',
    '/mail/config-v1.1.xml',
    autoconfig({ imapPort: dovecot.port, issuer: idp.issuer }),
  );
  // plain.test publishes its file over plain HTTP only: anyone on the way could have written it.
  plain.serve(
    'autoconfig.plain.test',
    '/mail/config-v1.1.xml',
    autoconfig({ imapPort: dovecot.port, issuer: idp.issuer }).replaceAll('signin.test', 'plain.test'),
  );
  // For the screenshots: a provider's file as a person would meet it (its hosts are never reached: nothing logs
  // in before the person signs in), over plain HTTP, so every setting in it waits for a check.
  plain.serve(
    'autoconfig.northwind.test',
    '/mail/config-v1.1.xml',
    `<clientConfig version="1.1"><emailProvider id="northwind.test">
      <incomingServer type="imap"><hostname>imap.northwind.test</hostname><port>993</port><socketType>SSL</socketType>
        <username>%EMAILADDRESS%</username><authentication>OAuth2</authentication></incomingServer>
      <outgoingServer type="smtp"><hostname>smtp.northwind.test</hostname><port>465</port><socketType>SSL</socketType>
        <username>%EMAILADDRESS%</username><authentication>OAuth2</authentication></outgoingServer>
    </emailProvider><oAuth2><issuer>sso.northwind.test</issuer></oAuth2></clientConfig>`,
  );
  // A provider whose autoconfig server takes the request and never answers.
  web.serve('autoconfig.slow.test', '/mail/config-v1.1.xml', { body: '', hang: true });
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  // The app's discovery asks the system's DNS; this one asks the test's and trusts its CA, nothing else changes.
  Object.assign(
    app.handlers,
    discoverHandlers({
      resolver: resolverFor(dns.port),
      ca: ca.cert,
      ports: { https: web.port, http: plain.port },
      probeTimeoutMs: 1000,
    }),
  );
  ({ served, browser, context, page } = await openApp(app, {
    foreign,
    viewport: { width: 1280, height: 1000 },
    colorScheme: 'light',
  }));
  const issuerOrigin = new URL(idp.issuer).origin;
  allowed.add(issuerOrigin);
  // Registered after openApp's route, so asked first (Playwright runs the last registered route first).
  await context.route(
    (url) => allowed.has(url.origin) || url.hostname === 'fonts.googleapis.com',
    (route) => {
      const url = new URL(route.request().url());
      // The test provider's page asks for a web font; it is not Skimmer's and goes nowhere.
      if (url.hostname === 'fonts.googleapis.com') return route.abort();
      const redirect = url.origin === issuerOrigin ? url.searchParams.get('redirect_uri') : null;
      if (redirect) {
        allowed.add(new URL(redirect).origin);
        lastRedirect = redirect;
      }
      return route.continue();
    },
  );
  await page.getByTestId('accounts-open').waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await app?.close();
});

// The redirect URI of the newest sign-in, as the provider's authorize request carried it.
let lastRedirect = '';
const dialog = (): Locator => page.getByTestId('accounts-dialog');
const form = (): Locator => dialog().getByTestId('account-form');
const source = (setting: string): Locator =>
  form().locator(`[data-testid="account-source"][data-setting="${setting}"]`);
const threadRow = (subject: string): Locator => page.getByTestId('thread-row').filter({ hasText: subject });

async function typeAddress(address: string): Promise<void> {
  const field = form().getByTestId('account-address');
  await field.fill(address);
  // Enter continues, as in Thunderbird's and Apple Mail's first step.
  await field.press('Enter');
}

// Presses Sign in and returns the tab the page opened with the provider's sign-in page.
async function signInTab(): Promise<Page> {
  const opened = context.waitForEvent('page');
  await form().getByTestId('account-signin').click();
  const tab = await opened;
  await tab.waitForLoadState('domcontentloaded');
  return tab;
}

// The person's part on the provider's own pages: sign in (the address is offered as the login) unless the
// provider remembers them, then consent; its last page is Skimmer's redirect listener's.
async function signInOnProvider(tab: Page): Promise<void> {
  const password = tab.locator('input[name="password"]');
  const consent = tab.getByRole('button', { name: 'Continue' });
  await password.or(consent).first().waitFor();
  if ((await password.count()) > 0) {
    await password.fill('any');
    await tab.locator('button[type="submit"]').first().click();
  }
  await consent.click();
  await tab.getByText('You can close this tab', { exact: false }).waitFor();
  await tab.close();
}

describe('A new user adds their account by its address', () => {
  test('the address step asks for the address alone', async () => {
    await page.getByTestId('accounts-open').click();
    await dialog().getByTestId('accounts-empty').waitFor();
    expect(await form().getAttribute('data-step')).toBe('address');
    expect(await form().getByTestId('account-imap-host').count()).toBe(0);
    await form().getByTestId('account-address').fill('dana@northwind.test');
    await page.screenshot({ path: join(shots, 'account-address-first.png') });
  });

  test('an address nothing is found for says so, and the servers can be typed by hand', async () => {
    await typeAddress('bo@nothing.test');
    await expect
      .poll(() => form().getByTestId('account-discover-error').textContent())
      .toContain('No mail settings were found for nothing.test');
    await form().getByTestId('account-by-hand').click();
    await expect.poll(() => form().getAttribute('data-step')).toBe('settings');
    expect(await form().getByTestId('account-user').inputValue()).toBe('bo@nothing.test');
    expect(await form().getByTestId('account-imap-host').inputValue()).toBe('');
    await form().getByTestId('account-back').click();
    await expect.poll(() => form().getAttribute('data-step')).toBe('address');
  });

  test('a lookup that takes long can be stopped, and the address step is the person’s again at once', async () => {
    await typeAddress('kim@slow.test');
    const stop = form().getByTestId('account-discover-stop');
    await stop.waitFor();
    expect(await form().getByTestId('account-continue').isDisabled()).toBe(true);
    await stop.click();
    await expect.poll(() => stop.count()).toBe(0);
    expect(await form().getByTestId('account-continue').textContent()).toBe('Continue');
    expect(await form().getByTestId('account-discover-error').count()).toBe(0);
    expect(await form().getAttribute('data-step')).toBe('address');
    // Another address is looked up as usual, the stalled one's answer left behind.
    await typeAddress('bo@nothing.test');
    await expect
      .poll(() => form().getByTestId('account-discover-error').textContent())
      .toContain('No mail settings were found for nothing.test');
    await form().getByTestId('account-address').fill('');
  });

  test('settings over plain HTTP are marked, and Sign in waits until the person has checked them', async () => {
    await typeAddress('ana@plain.test');
    await form().getByTestId('account-found').waitFor();
    for (const setting of ['imap', 'auth']) {
      expect(await source(setting).getAttribute('data-verified')).toBe('false');
      expect(await source(setting).textContent()).toContain('Not verified: check it');
      expect(await source(setting).textContent()).toContain('from autoconfig (http)');
    }
    expect(await form().getByTestId('account-found-warnings').textContent()).toContain('plain HTTP');
    // The first thing to do has the keyboard: the first setting to check.
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('[data-setting]')?.getAttribute('data-setting')),
      )
      .toBe('imap');
    await form().getByTestId('account-client-id').fill(idp.clientId);
    const signIn = form().getByTestId('account-signin');
    expect(await signIn.isDisabled()).toBe(true);
    expect(await form().getByTestId('account-blocked').textContent()).toContain('marked “Not verified”');
    await page.screenshot({ path: join(shots, 'account-found-1280-light.png') });
    await source('imap').getByTestId('account-source-check').check();
    await expect.poll(() => source('imap').textContent()).toContain('checked by you');
    expect(await signIn.isDisabled()).toBe(true);
    await source('auth').getByTestId('account-source-check').check();
    await expect.poll(() => signIn.isDisabled()).toBe(false);
    expect(await signIn.textContent()).toBe(`Sign in with ${new URL(idp.issuer).host}`);
  });

  test('the form’s Cancel ends the wait with a sentence, and nothing is stored', async () => {
    const tab = await signInTab();
    const wait = form().getByTestId('account-signin-wait');
    await expect.poll(() => wait.getAttribute('data-state')).toBe('waiting');
    expect(await wait.textContent()).toContain('Waiting for you to sign in in your browser…');
    await page.screenshot({ path: join(shots, 'account-waiting-1280-light.png') });
    await wait.getByTestId('account-signin-wait-cancel').click();
    await form().getByTestId('account-form-error').waitFor();
    expect(await form().getByTestId('account-form-error').textContent()).toBe(
      'The sign-in was stopped; nothing was saved.',
    );
    await tab.close();
    expect(await call(app, 'account:list', {})).toEqual([]);
  });

  test('the provider’s Cancel (error=access_denied) ends the wait with a sentence', async () => {
    const tab = await signInTab();
    await tab.getByText('[ Cancel ]').click();
    await form().getByTestId('account-form-error').waitFor();
    await expect
      .poll(() => form().getByTestId('account-form-error').textContent())
      .toContain('access denied');
    await tab.close();
    expect(await call(app, 'account:list', {})).toEqual([]);
  });

  test('a redirect that is not this sign-in’s (another state) is refused in the tab and in the form', async () => {
    const tab = await signInTab();
    await expect
      .poll(() => form().getByTestId('account-signin-wait').getAttribute('data-state'))
      .toBe('waiting');
    const forged = new URL(lastRedirect);
    forged.searchParams.set('state', 'not-this-sign-ins');
    forged.searchParams.set('code', 'a-code-from-elsewhere');
    await tab.goto(forged.href);
    await tab.getByText('This redirect was not for the sign-in Skimmer started').waitFor();
    await expect
      .poll(() => form().getByTestId('account-form-error').textContent())
      .toContain('the redirect did not carry this sign-in’s state');
    await tab.close();
    expect(await call(app, 'account:list', {})).toEqual([]);
  });

  test('a token endpoint that answers 400 ends the sign-in with a sentence, and nothing is stored', async () => {
    idp.failTokenRequests(1);
    const tab = await signInTab();
    await signInOnProvider(tab);
    await expect
      .poll(() => form().getByTestId('account-form-error').textContent())
      .toMatch(/refused the sign-in \(400, "invalid_request"\); nothing was saved/);
    expect(await call(app, 'account:list', {})).toEqual([]);
    // The provider remembers who signed in there (this form's address); the tests after this sign in as
    // someone else, so its session cookies go (the app's own cookie stays).
    await context.clearCookies({ name: /^_(session|interaction)/ });
  });

  test('Esc closes the dialog while it waits, which cancels the sign-in', async () => {
    const tab = await signInTab();
    const wait = form().getByTestId('account-signin-wait');
    await expect.poll(() => wait.getAttribute('data-state')).toBe('waiting');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    // Skimmer waits no more for the provider's page: its tab goes, and nothing was stored.
    await tab.close();
    await page.getByTestId('accounts-open').click();
    await expect.poll(() => form().getAttribute('data-step')).toBe('settings');
    expect(await form().getByTestId('account-signin-wait').count()).toBe(0);
    expect(await call(app, 'account:list', {})).toEqual([]);
  });

  test('settings found over HTTPS need no check: signing in on the provider’s page brings the mail', async () => {
    await form().getByTestId('account-back').click();
    await typeAddress(user);
    await form().getByTestId('account-found').waitFor();
    for (const setting of ['imap', 'auth']) {
      expect(await source(setting).getAttribute('data-verified')).toBe('true');
      expect(await source(setting).textContent()).toContain('from autoconfig (https)');
    }
    expect(await form().getByTestId('account-imap-host').inputValue()).toBe('127.0.0.1');
    expect(await form().getByTestId('account-user').inputValue()).toBe(user);
    expect(await form().getByTestId('account-method').inputValue()).toBe('issuer');
    expect(await form().getByTestId('account-issuer').inputValue()).toBe(idp.issuer);
    await form().getByTestId('account-client-id').fill(idp.clientId);

    await signInOnProvider(await signInTab());

    await form().getByTestId('account-saved').waitFor();
    expect(await form().getByTestId('account-saved').textContent()).toContain(`Signed in “${user}”`);
    const row = dialog().getByTestId('account-row');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByTestId('account-signed-in').textContent()).toBe('Signed in with the provider');
    await expect.poll(() => row.getByTestId('account-status').textContent()).toBe('Up to date');
    const [account] = await call(app, 'account:list', {});
    expect(account).toMatchObject({ user, auth: 'oauth2', needsSignIn: false, lastError: null });

    await dialog().getByTestId('accounts-close').click();
    for (const m of seeded) await expect.poll(() => threadRow(m.subject).count()).toBe(1);
    await page.screenshot({ path: join(shots, 'account-mail-arrived.png') });
    // The mail came through logins whose tokens were refreshed on the way, and nothing said so.
    expect(idp.tokenRequests.refresh_token).toBeGreaterThan(0);
    // The provider's page and the redirect listener were all the browser reached besides the app.
    expect(foreign).toEqual([]);
  });

  test('a sign-in the provider revoked shows Sign in again, and signing in again resumes the sync', async () => {
    idp.revokeAll();
    await page.getByTestId('accounts-open').click();
    const row = dialog().getByTestId('account-row');
    // The background sync keeps its connection (IDLE); Test logs in afresh, and the provider refuses.
    await row.getByTestId('account-test').click();
    await row.getByTestId('account-signin-again').waitFor();
    expect(await row.getByTestId('account-test-result').textContent()).toContain('sign in again');
    expect(await row.getByTestId('account-signed-in').textContent()).toBe('Needs signing in again');
    expect(await row.getByTestId('account-status').textContent()).toBe('Paused until you sign in again');
    expect(await row.getByTestId('account-needs-signin').textContent()).toContain('sign in again');
    await page.screenshot({ path: join(shots, 'account-signin-again.png') });

    // Where the person reads their mail, the folder list says it too, with its own Sign in again.
    await dialog().getByTestId('accounts-close').click();
    const inFolders = page.getByTestId('folder-signin');
    await inFolders.waitFor();
    expect(await inFolders.textContent()).toContain('sign in again');
    await page.screenshot({ path: join(shots, 'account-signin-again-folders.png') });
    const opened = context.waitForEvent('page');
    await inFolders.getByTestId('folder-signin-again').click();
    const tab = await opened;
    await expect.poll(() => inFolders.textContent()).toContain('Waiting for the sign-in in your browser');
    await signInOnProvider(tab);
    await inFolders.waitFor({ state: 'detached' });
    await page.getByTestId('accounts-open').click();
    expect(await row.getByTestId('account-signin-again').count()).toBe(0);
    expect(await row.getByTestId('account-signed-in').textContent()).toBe('Signed in with the provider');
    const [account] = await call(app, 'account:list', {});
    expect(account).toMatchObject({ needsSignIn: false });
    await expect.poll(() => row.getByTestId('account-status').textContent()).toBe('Up to date');

    // The sync carries on: mail delivered after the sign-in arrives without a reload.
    await dialog().getByTestId('accounts-close').click();
    await dovecot.append(
      'INBOX',
      [
        eml({
          id: '<after@signin.test>',
          subject: 'After signing in again',
          date: 'Wed, 2 Dec 2026 09:00:00 +0000',
        }),
      ],
      [],
      user,
    );
    await expect.poll(() => threadRow('After signing in again').count()).toBe(1);
    for (const m of seeded) expect(await threadRow(m.subject).count()).toBe(1);
    expect(foreign).toEqual([]);
  });
});

// How the three steps look at a laptop's width and a narrow window's, in both themes (test-results/screenshots;
// docs/screenshots/account-address.png and account-found.png are two of them).
describe('The account form as a person sees it', () => {
  for (const width of [1280, 900]) {
    for (const theme of ['light', 'dark'] as const) {
      test(`at ${width} px, ${theme}`, async () => {
        const name = (step: string) => join(shots, `account-${step}-${width}-${theme}.png`);
        await page.setViewportSize({ width, height: 900 });
        await page.evaluate((t) => localStorage.setItem('skimmer.theme', t), theme);
        await page.reload();
        // At 900 px the top bar folds Accounts into More (issue 29 §6).
        if (width < 1070) await page.getByTestId('top-more').click();
        await page.getByTestId(width < 1070 ? 'more-accounts-open' : 'accounts-open').click();
        await form().getByTestId('account-address').fill('dana@northwind.test');
        await page.screenshot({ path: name('address') });

        await form().getByTestId('account-address').press('Enter');
        await form().getByTestId('account-found').waitFor();
        await source('smtp').getByTestId('account-source-check').check();
        await form().getByTestId('account-client-id').fill('1234567890-skimmer.apps.example');
        await form().evaluate((f) => f.scrollIntoView({ block: 'start' }));
        await page.screenshot({ path: name('found') });

        await form().getByTestId('account-back').click();
        await typeAddress('ana@plain.test');
        await form().getByTestId('account-found').waitFor();
        for (const setting of ['imap', 'auth'])
          await source(setting).getByTestId('account-source-check').check();
        await form().getByTestId('account-client-id').fill(idp.clientId);
        const tab = await signInTab();
        const wait = form().getByTestId('account-signin-wait');
        await expect.poll(() => wait.getAttribute('data-state')).toBe('waiting');
        await page.bringToFront();
        await page.screenshot({ path: name('waiting') });
        await wait.getByTestId('account-signin-wait-cancel').click();
        await form().getByTestId('account-form-error').waitFor();
        await tab.close();
      });
    }
  }
});
