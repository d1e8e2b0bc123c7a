// A real OpenID provider on loopback for tests of signing in (issue 28): oidc-provider, an OpenID-certified
// server, with one public client that must use PKCE S256 (a desktop app's client: no secret, any loopback
// port, RFC 8252 §7.3), the authorization code flow, refresh tokens (offline_access; rotated at each use, as
// oidc-provider does for public clients and Microsoft does), short-lived access tokens, revocation, and
// introspection for the mail servers (Dovecot's oauth2 passdb, the SMTP sink), which call it as a
// confidential resource-server client.
//
// Plain http on 127.0.0.1 by default: the product allows an http:// issuer on this computer only
// (shared/oauth-issuer.ts), as for model services. With `ca` (test/support/test-ca.ts) the provider is served
// over HTTPS with a certificate from the tests' CA, as a real provider is, and the mail servers introspect over a
// plain listener of the same provider beside it (an internal network's resource servers).
//
// The person's part of the sign-in is done by `authorize()`, a script of the browser: it opens the authorize
// URL, answers the login and consent pages of oidc-provider's development interactions (which take any user
// name; the form posts `prompt=login&login=NAME`, then `prompt=consent`), and follows the redirects with the
// provider's cookies until one leaves the provider, which it requests from Skimmer's loopback listener as a
// browser would. `deny: true` presses the abort link instead (error=access_denied).
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, onTestFinished, TestRunner } from 'vitest';
import type { TestCa } from './test-ca.ts';

export type OidcServer = {
  issuer: string;
  clientId: string;
  /** The confidential client the mail servers introspect with (HTTP Basic). */
  introspection: {
    url: string;
    clientId: string;
    clientSecret: string;
    /** The URL with the client's credentials in it, as Dovecot's `introspection_url` takes them (HTTP Basic). */
    withCredentials: string;
  };
  /**
   * Plays the browser: opens the authorize URL, signs in as `user`, consents (or aborts with `deny`), and
   * requests where the provider redirects to last. The answer of that last request.
   */
  authorize(url: string, opts?: { user?: string; deny?: boolean }): Promise<Redirected>;
  /** Asks the introspection endpoint about a token, as the mail servers do. */
  introspect(token: string): Promise<{ active: boolean; sub?: string }>;
  /** Revokes every token and grant given so far (as a password change or a revoked app would). */
  revokeAll(): void;
  /** Revokes the access tokens only: a refresh still works (a server that refuses a token before its time). */
  revokeAccessTokens(): void;
  /** The token endpoint answers the next `n` requests with 400 `invalid_request`. */
  failTokenRequests(n: number): void;
  /** Token requests answered so far, by grant type. */
  readonly tokenRequests: { authorization_code: number; refresh_token: number };
  /** Every token string the provider handed out (access and refresh), for canary checks. */
  readonly issued: { access: string[]; refresh: string[] };
  close(): Promise<void>;
};

type Redirected = { url: string; status: number; body: string };

type Stored = { payload: Record<string, unknown>; expiresAt: number };

// oidc-provider's store: a Map of our own rather than its shared development adapter, so revokeAll() can see
// and drop what this provider gave out.
function adapterOn(store: Map<string, Stored>) {
  return class MapAdapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }
    key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      store.set(this.key(id), {
        payload,
        expiresAt: typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY,
      });
    }
    async find(id: string) {
      const s = store.get(this.key(id));
      if (!s) return undefined;
      if (s.expiresAt <= Date.now()) {
        store.delete(this.key(id));
        return undefined;
      }
      return s.payload;
    }
    async findByUid(uid: string) {
      for (const [k, s] of store)
        if (k.startsWith(`${this.model}:`) && s.payload.uid === uid)
          return this.find(k.slice(this.model.length + 1));
      return undefined;
    }
    async findByUserCode(code: string) {
      for (const [k, s] of store)
        if (k.startsWith(`${this.model}:`) && s.payload.userCode === code)
          return this.find(k.slice(this.model.length + 1));
      return undefined;
    }
    async consume(id: string) {
      const s = store.get(this.key(id));
      if (s) s.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, s] of store) if (s.payload.grantId === grantId) store.delete(k);
    }
  };
}

export async function startOidc(
  opts: {
    /** Seconds an access token lives (default 3600). */
    accessTokenTtl?: number;
    clientId?: string;
    /** Serve the provider over HTTPS with a certificate from this CA (the client must be told to trust it). */
    ca?: TestCa;
  } = {},
): Promise<OidcServer> {
  const clientId = opts.clientId ?? 'skimmer-test';
  const rs = { clientId: 'mail-servers', clientSecret: 'introspect-secret-for-tests' };
  const store = new Map<string, Stored>();
  const tokenRequests = { authorization_code: 0, refresh_token: 0 };
  const issued = { access: [] as string[], refresh: [] as string[] };
  let failing = 0;

  const listen = async (s: Server) => {
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => resolve());
    });
    return (s.address() as AddressInfo).port;
  };
  const server: Server = opts.ca ? createHttpsServer(opts.ca.issue(['localhost'])) : createServer();
  const port = await listen(server);
  const issuer = `${opts.ca ? 'https' : 'http'}://127.0.0.1:${port}`;
  // Where the mail servers ask about tokens: the provider itself, or its plain listener beside the HTTPS one.
  const internal: Server | null = opts.ca ? createServer() : null;
  const internalPort = internal ? await listen(internal) : port;
  // The tests' own requests to an HTTPS provider trust the tests' CA, as Skimmer is told to.
  const dispatcher = opts.ca ? new Agent({ connect: { ca: opts.ca.cert } }) : null;
  const get = (url: string, init: RequestInit = {}): Promise<Response> =>
    dispatcher
      ? (undiciFetch(url, { ...(init as object), dispatcher } as never) as unknown as Promise<Response>)
      : fetch(url, init);

  // oidc-provider warns on stderr that development interactions and a development store are in use: they are,
  // on purpose, for a test. Its other warnings still show.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && /devInteractions|development-only/.test(args[0])) return;
    warn(...args);
  };
  const provider = new Provider(issuer, {
    adapter: adapterOn(store),
    clients: [
      {
        client_id: clientId,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        redirect_uris: ['http://127.0.0.1/'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
      {
        client_id: rs.clientId,
        client_secret: rs.clientSecret,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
    ],
    // SECURITY (of the test): a public client's PKCE is required by oidc-provider, and only S256 is offered.
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      // Only the mail servers' client asks about tokens (oidc-provider's default would let any confidential client).
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client) => client.clientId === rs.clientId,
      },
      revocation: { enabled: true },
    },
    scopes: ['openid', 'offline_access', 'email', 'mail'],
    claims: { email: ['email'] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: sub }) }),
    ttl: {
      AccessToken: opts.accessTokenTtl ?? 3600,
      AuthorizationCode: 600,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      Session: 3600,
      Interaction: 3600,
    },
    cookies: { keys: ['a cookie key for the test provider only'] },
  });
  console.warn = warn;

  provider.use(async (ctx, next) => {
    if (ctx.path === '/token' && ctx.method === 'POST') {
      if (failing > 0) {
        failing -= 1;
        ctx.status = 400;
        ctx.type = 'application/json';
        ctx.body = { error: 'invalid_request', error_description: 'refused by the test' };
        return;
      }
      await next();
      const body = ctx.body as { access_token?: unknown; refresh_token?: unknown } | undefined;
      if (ctx.status === 200 && body) {
        if (typeof body.access_token === 'string') issued.access.push(body.access_token);
        if (typeof body.refresh_token === 'string') issued.refresh.push(body.refresh_token);
      }
      return;
    }
    await next();
  });
  provider.on('grant.success', (ctx) => {
    const type = (ctx.oidc.params as { grant_type?: string } | undefined)?.grant_type;
    if (type === 'authorization_code' || type === 'refresh_token') tokenRequests[type] += 1;
  });
  server.on('request', provider.callback());
  internal?.on('request', provider.callback());

  const introspectionUrl = `http://127.0.0.1:${internalPort}/token/introspection`;
  const basic = `Basic ${Buffer.from(`${rs.clientId}:${rs.clientSecret}`).toString('base64')}`;

  let closed = false;
  const instance: OidcServer = {
    issuer,
    clientId,
    introspection: {
      url: introspectionUrl,
      ...rs,
      withCredentials: `http://${rs.clientId}:${rs.clientSecret}@127.0.0.1:${internalPort}/token/introspection`,
    },
    authorize: (url, o = {}) => playBrowser(issuer, url, o.user ?? 'test@example.com', o.deny ?? false, get),
    async introspect(token) {
      const r = await fetch(introspectionUrl, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }),
      });
      return (await r.json()) as { active: boolean; sub?: string };
    },
    revokeAll() {
      for (const k of [...store.keys()])
        if (!k.startsWith('Session:') && !k.startsWith('Interaction:')) store.delete(k);
    },
    revokeAccessTokens() {
      for (const k of [...store.keys()]) if (k.startsWith('AccessToken:')) store.delete(k);
    },
    failTokenRequests(n) {
      failing = n;
    },
    tokenRequests,
    issued,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const s of internal ? [server, internal] : [server]) {
        await new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        });
      }
      await dispatcher?.close();
    },
  };
  if (process.env.VITEST) {
    if (TestRunner.getCurrentTest()) onTestFinished(() => instance.close());
    else afterAll(() => instance.close());
  }
  return instance;
}

// A browser's part of the authorization code flow, against oidc-provider's development interactions: the
// provider's own pages keep their state in cookies, which this keeps per host; the first redirect that leaves
// the provider is the client's redirect URI, requested once, and its answer is the result.
async function playBrowser(
  issuer: string,
  start: string,
  user: string,
  deny: boolean,
  get: (url: string, init?: RequestInit) => Promise<Response>,
): Promise<Redirected> {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (r: Response) => {
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = (pair ?? '').indexOf('=');
      if (eq > 0) cookies.set((pair as string).slice(0, eq).trim(), (pair as string).slice(eq + 1));
    }
  };
  let url = start;
  let form: URLSearchParams | null = null;
  for (let hop = 0; hop < 20; hop++) {
    const ours = new URL(url).origin === issuer;
    const r: Response = await (ours ? get : fetch)(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(ours && cookies.size ? { cookie: cookieHeader() } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: form } : {}),
    });
    form = null;
    if (!ours) return { url, status: r.status, body: await r.text() };
    keep(r);
    const location = r.headers.get('location');
    if (r.status >= 300 && r.status < 400 && location) {
      url = new URL(location, url).href;
      continue;
    }
    const page: string = await r.text();
    const interaction = /\/interaction\/([\w-]+)/.exec(new URL(url).pathname);
    if (r.status !== 200 || !interaction)
      throw new Error(`the provider answered ${r.status}: ${page.slice(0, 300)}`);
    if (deny) {
      url = `${issuer}/interaction/${interaction[1]}/abort`;
      continue;
    }
    form = /name="prompt" value="consent"|value="consent"/.test(page)
      ? new URLSearchParams({ prompt: 'consent' })
      : new URLSearchParams({ prompt: 'login', login: user, password: 'any' });
  }
  throw new Error('the sign-in went through more than 20 pages');
}
