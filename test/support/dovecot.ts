// A real Dovecot IMAP server on loopback for tests: one private instance per call, on a free port, with
// its own config, base_dir, state, log and Maildir under a temp dir. The config is the one tested in
// ../shared/reference/feasibility.md §B (ssl = no, plaintext auth, passwd-file users, static userdb,
// Maildir), run in the foreground as our child so that stop() and kill() know every process.
//
// Dovecot 2.3.19.1 (Debian's dovecot-imapd) answers CAPABILITY after login with, among others,
// IDLE, UIDPLUS, MOVE, CONDSTORE, QRESYNC, SPECIAL-USE, LIST-STATUS, ESEARCH, MULTIAPPEND, LITERAL+,
// BINARY and NOTIFY; `imap_capability` is left at its default so tests see what a real server offers.
// Before login only IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ AUTH=PLAIN AUTH=LOGIN.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { ImapFlow } from 'imapflow';
import { afterAll, onTestFinished, TestRunner } from 'vitest';
import type { AccountLogin } from '../../electron/mail/accounts.ts';

export type MailUser = { user: string; pass: string };

export type Dovecot = {
  host: '127.0.0.1';
  /** Chosen free at the first start and kept by every restart. */
  readonly port: number;
  users: MailUser[];
  dir: string;
  /** The master's pid, which is also its process group; undefined while stopped. */
  readonly pid: number | undefined;
  /** SIGTERM and wait until Dovecot and all its processes are gone (about 1 s). Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL the master and every child at once: connections drop with no BYE, like a crashed server. */
  kill(): Promise<void>;
  /** Start again after stop() or kill(): same port, same config, same mail. */
  start(): Promise<void>;
  /** The options that reach this server with imapflow, for the code under test. */
  imapOptions(user?: string): ImapOptions;
  /** A connected client of our own, for assertions. The caller logs it out. */
  client(user?: string): Promise<ImapFlow>;
  /** APPEND each message in order over one IMAP connection; the UIDs the server gave them. */
  append(mailbox: string, raws: (string | Buffer)[], flags?: string[], user?: string): Promise<number[]>;
  /**
   * Write messages straight into the user's Maildir (`cur/`, via `tmp/`), named so that Dovecot gives
   * them ascending UIDs in this order at its next sync. Much faster than APPEND for big mailboxes; works
   * with Dovecot running or stopped. The mailbox is created if missing (not subscribed).
   */
  seedMaildir(user: string, mailbox: string, raws: (string | Buffer)[], flags?: string[]): void;
  /** Give the mailbox a new, larger UIDVALIDITY, keeping its messages (`doveadm mailbox update`). */
  resetUidValidity(mailbox: string, user?: string): Promise<void>;
  /**
   * The user's connections open now, as Dovecot counts them (`doveadm who`): what its per-user limit goes by.
   * A client that logged out or closed its socket is still counted until its imap process has ended.
   */
  connections(user?: string): Promise<number>;
};

type ImapOptions = {
  host: string;
  port: number;
  secure: false;
  doSTARTTLS: false;
  auth: { user: string; pass: string };
  logger: false;
};

const dovecotBin = '/usr/sbin/dovecot';
const doveadmBin = '/usr/bin/doveadm';
// `setpriv --pdeathsig TERM` makes the kernel send SIGTERM to the Dovecot master when the test process
// dies by a signal (a Ctrl-C'd or timed-out vitest worker), where no 'exit' handler of ours can run.
const setprivBin = '/usr/bin/setpriv';
const defaultUsers: MailUser[] = [{ user: 'test@example.com', pass: 'secret' }];
// Dovecot refuses to access mail as uid 0 (feasibility.md §B gotchas), so as root the mail belongs to
// nobody/nogroup, which is 65534/65534 on Debian and the kernel's overflow id elsewhere.
const isRoot = process.getuid?.() === 0;
const mailUid = isRoot ? 65534 : (process.getuid?.() ?? 0);
const mailGid = isRoot ? 65534 : (process.getgid?.() ?? 0);
const run = promisify(execFile);

// Masters still running when the test process exits normally: killed with their process group.
const running = new Set<number>();
process.on('exit', () => {
  for (const pid of running) killGroup(pid, 'SIGKILL');
});

// `junk`: also a Junk mailbox with the \Junk special use (RFC 6154), where Spam goes.
// `oauth2`: also AUTH=XOAUTH2 and AUTH=OAUTHBEARER (RFC 7628), each token checked at that introspection
// endpoint (RFC 7662, POSTed with the client's credentials in the URL as HTTP Basic; test/support/oidc.ts) and
// its `sub` taken as the user name, as Dovecot's oauth2 passdb does in front of Keycloak or WSO2. `mechanisms`
// offers fewer: XOAUTH2 alone is what Outlook.com and Microsoft 365 offer.
type OAuth2Options = { introspectionUrl: string; mechanisms?: ('xoauth2' | 'oauthbearer')[] };

export async function startDovecot(
  opts: { users?: MailUser[]; junk?: boolean; oauth2?: OAuth2Options } = {},
): Promise<Dovecot> {
  if (!existsSync(dovecotBin)) {
    throw new Error(`${dovecotBin} is missing: install dovecot-imapd (\`npm test\` does it as root).`);
  }
  const users = opts.users ?? defaultUsers;
  for (const u of users) {
    // The name becomes a directory (home=mail/%u) and a passwd-file line; a password with ':' or a
    // newline would split the line.
    if (!/^[\w.@+-]+$/.test(u.user) || /[:\r\n]/.test(u.pass))
      throw new Error(`unusable test user ${u.user}`);
  }
  // Its own temp dir, removed by the cleanup below (not tempDir(): this also runs outside vitest, in bench/).
  const dir = mkdtempSync(join(tmpdir(), 'skimmer-dovecot-'));
  // Dovecot's own processes (auth as `dovecot`, mail as nobody) must get through mkdtemp's 0700 dir.
  if (isRoot) chmodSync(dir, 0o711);
  const mail = join(dir, 'mail');
  mkdirSync(join(dir, 'run'));
  mkdirSync(join(dir, 'state'));
  mkdirOwned(mail);
  writeFileSync(join(dir, 'users'), users.map((u) => `${u.user}:{PLAIN}${u.pass}\n`).join(''), {
    mode: 0o644,
  });
  // A greeting unique to this instance: readiness is "our server said hello", not "something listens".
  const greeting = `Skimmer test Dovecot ${basename(dir)}`;
  const conf = join(dir, 'dovecot.conf');
  const log = join(dir, 'dovecot.log');
  let port = 0;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const userOf = (name?: string): MailUser => {
    const u = name === undefined ? users[0] : users.find((x) => x.user === name);
    if (!u) throw new Error(`no test user ${name}`);
    return u;
  };

  async function launch(): Promise<'ready' | 'port-taken'> {
    rmSync(join(dir, 'run', 'master.pid'), { force: true }); // ours is dead; a reused pid must not block us
    writeFileSync(
      conf,
      config({ dir, port, greeting, junk: opts.junk ?? false, oauth2: opts.oauth2 ?? null }),
    );
    if (opts.oauth2) {
      writeFileSync(join(dir, 'oauth2.conf.ext'), oauth2Config(opts.oauth2.introspectionUrl), {
        mode: 0o644,
      });
    }
    const args = ['-F', '-c', conf];
    // detached: a process group of its own, so kill() can SIGKILL master and children in one call.
    const proc = existsSync(setprivBin)
      ? spawn(setprivBin, ['--pdeathsig', 'TERM', dovecotBin, ...args], {
          detached: true,
          stdio: ['ignore', 'ignore', 'pipe'],
        })
      : spawn(dovecotBin, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const pid = proc.pid;
    if (pid === undefined) throw new Error(`could not run ${dovecotBin}`);
    running.add(pid);
    exited = new Promise((resolve) =>
      proc.once('exit', () => {
        running.delete(pid);
        resolve();
      }),
    );
    // A forgotten stop() must not keep the worker alive: the 'exit' handler and pdeathsig clean up.
    proc.unref();
    (proc.stderr as Socket | null)?.unref();
    child = proc;

    // About 0.1 s on an idle machine; a busy 2-core one running the whole suite has taken seconds.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null || proc.signalCode !== null) break;
      if (await saysHello(port, greeting)) return 'ready';
      await sleep(20);
    }
    const tail = `${stderr}${readTail(log)}`;
    await killAndWait();
    if (/Address already in use/.test(tail)) return 'port-taken';
    throw new Error(`Dovecot did not start on port ${port}:\n${tail}`);
  }

  async function killAndWait(): Promise<void> {
    const proc = child;
    if (!proc?.pid) return;
    killGroup(proc.pid, 'SIGKILL');
    await exited;
    await groupGone(proc.pid, 0);
    child = undefined;
  }

  const instance: Dovecot = {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    users,
    dir,
    get pid() {
      return child?.pid;
    },
    async stop() {
      const proc = child;
      if (!proc?.pid) return;
      proc.kill('SIGTERM');
      // The master stops its services and exits after about 1 s; its log process may outlive it by a
      // moment (seen as a zombie of pid 1 right after), so wait for the whole group, not the master.
      if (!(await within(exited, 10_000))) killGroup(proc.pid, 'SIGKILL');
      await exited;
      await groupGone(proc.pid, 1000);
      child = undefined;
    },
    kill: killAndWait,
    async start() {
      if (child) throw new Error('Dovecot is already running');
      if ((await launch()) === 'port-taken') throw new Error(`port ${port} was taken while Dovecot was down`);
    },
    imapOptions(user) {
      const u = userOf(user);
      return {
        host: '127.0.0.1',
        port,
        secure: false,
        doSTARTTLS: false,
        auth: { user: u.user, pass: u.pass },
        logger: false,
      };
    },
    async client(user) {
      const c = new ImapFlow(instance.imapOptions(user));
      await c.connect();
      return c;
    },
    async append(mailbox, raws, flags = [], user) {
      const c = await instance.client(user);
      try {
        const uids: number[] = [];
        for (const raw of raws) {
          const r = await c.append(mailbox, raw, flags);
          // Dovecot has UIDPLUS: every APPEND answers with APPENDUID.
          if (!r || r.uid === undefined) throw new Error(`APPEND to ${mailbox} gave no UID`);
          uids.push(r.uid);
        }
        return uids;
      } finally {
        await c.logout();
      }
    },
    seedMaildir(user, mailbox, raws, flags = []) {
      userOf(user);
      seedMaildir(maildirOf(mail, user, mailbox), raws, flags);
    },
    async resetUidValidity(mailbox, user) {
      const u = userOf(user).user;
      const doveadm = (...args: string[]) => run(doveadmBin, ['-c', conf, ...args]);
      const status = async () => {
        const { stdout } = await doveadm(
          '-f',
          'flow',
          'mailbox',
          'status',
          '-u',
          u,
          'messages uidvalidity',
          mailbox,
        );
        return {
          messages: Number(/messages=(\d+)/.exec(stdout)?.[1]),
          uidValidity: Number(/uidvalidity=(\d+)/.exec(stdout)?.[1]),
        };
      };
      const old = await status();
      if (!old.uidValidity) throw new Error(`no UIDVALIDITY for ${u} ${mailbox}`);
      // Larger than the old value, like a server that recreated the mailbox later (Dovecot itself uses the
      // time in seconds). UIDVALIDITY is a 32-bit non-zero number (RFC 3501 §2.3.1.1).
      const next = Math.min(Math.max(old.uidValidity + 1, Math.floor(Date.now() / 1000)), 0xffffffff);
      // `mailbox update` resets the index: until something syncs the Maildir again, STATUS says
      // MESSAGES 0, and a client that has the mailbox selected is disconnected ("IMAP session state is
      // inconsistent, please relogin"). The status call below does that sync, so callers see only the
      // new UIDVALIDITY.
      await doveadm('mailbox', 'update', '-u', u, '--uid-validity', String(next), mailbox);
      const now = await status();
      if (now.uidValidity !== next || now.messages !== old.messages) {
        throw new Error(`UIDVALIDITY reset went wrong: ${JSON.stringify({ old, next, now })}`);
      }
    },
    async connections(user) {
      const u = userOf(user).user;
      const { stdout } = await run(doveadmBin, ['-c', conf, 'who', '-1']);
      return stdout.split('\n').filter((line) => line.startsWith(`${u} `) || line.startsWith(`${u}\t`))
        .length;
    },
  };

  // Stopped, and its directory removed, whoever started it. Inside a test an afterAll is never
  // run (vitest 5.1 registers it on a suite that already finished), so there it is onTestFinished, and
  // the directory is removed here too. A test may call stop() itself as well: it is idempotent.
  const cleanup = async () => {
    await instance.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  // Outside vitest (bench/imap-sync.ts) the caller stops it; the process 'exit' handler is the backstop.
  if (process.env.VITEST) {
    if (TestRunner.getCurrentTest()) onTestFinished(cleanup);
    else afterAll(cleanup);
  }

  port = await freePort();
  if ((await launch()) === 'port-taken') {
    // Another process took the port between our probe and Dovecot's bind: one more try.
    port = await freePort();
    if ((await launch()) === 'port-taken') throw new Error('no free port for Dovecot after two tries');
  }
  return instance;
}

// Dovecot 2.3's oauth2 passdb settings (doc.dovecot.org 2.3, "Open Authentication v2.0 database"): `post`
// sends `token=…` form-encoded; an inactive token (revoked, expired) is refused by `active`.
function oauth2Config(introspectionUrl: string): string {
  return `introspection_mode = post
introspection_url = ${introspectionUrl}
username_attribute = sub
active_attribute = active
active_value = true
`;
}

function config(o: {
  dir: string;
  port: number;
  greeting: string;
  junk: boolean;
  oauth2: OAuth2Options | null;
}): string {
  const mechanisms = (o.oauth2?.mechanisms ?? ['xoauth2', 'oauthbearer']).join(' ');
  const oauth2Passdb = o.oauth2
    ? `passdb {
  driver = oauth2
  mechanisms = ${mechanisms}
  args = ${o.dir}/oauth2.conf.ext
}
`
    : '';
  // Not root: Dovecot cannot switch users or chroot, so every internal user is us (the "rootless"
  // setup in Dovecot's docs) and the login and anvil services run unchrooted.
  const rootless = isRoot
    ? ''
    : `default_internal_user = ${userInfo().username}
default_internal_group = ${execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim()}
default_login_user = ${userInfo().username}
`;
  return `# Written by test/support/dovecot.ts for one test instance.
protocols = imap
listen = 127.0.0.1
base_dir = ${o.dir}/run
state_dir = ${o.dir}/state
log_path = ${o.dir}/dovecot.log
login_greeting = ${o.greeting}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login${o.oauth2 ? ` ${mechanisms}` : ''}
# A wrong password is answered after auth_failure_delay (2 s; with 0, within the 0.5 s failure timer),
# and every later login from the same IP, right or wrong, then waits the anvil "auth penalty" (2 s
# doubling to 15 s; measured: 4 s for a correct login after two failures). Tests of refusals would
# slow every test after them, so both are off. The penalty goes by making its socket unusable, the way
# Dovecot's docs (Authentication/Penalty) say to disable it; auth runs as a non-root user either way.
auth_failure_delay = 0
# Test mail need not survive a power cut; kill() is SIGKILL, and the kernel keeps what was written.
mail_fsync = never
mail_location = maildir:~/Maildir
first_valid_uid = 1
first_valid_gid = 1
${rootless}${oauth2Passdb}passdb {
  driver = passwd-file
${o.oauth2 ? '  mechanisms = plain login\n' : ''}  args = scheme=PLAIN username_format=%u ${o.dir}/users
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailGid} home=${o.dir}/mail/%u
}
service anvil {
${isRoot ? '' : '  chroot =\n'}  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
${isRoot ? '' : '  chroot =\n'}  inet_listener imap {
    address = 127.0.0.1
    port = ${o.port}
  }
  inet_listener imaps {
    port = 0
  }
}
namespace inbox {
  inbox = yes
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Archive {
    special_use = \\Archive
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
${o.junk ? '  mailbox Junk {\n    special_use = \\Junk\n    auto = subscribe\n  }\n' : ''}}
`;
}

// Maildir++ as Dovecot lays it out: INBOX is the Maildir itself, any other mailbox the directory
// "." + its IMAP name. The hierarchy separator is Dovecot's default for Maildir, '.', so "Projects.2026"
// is a child of "Projects" (LIST answers with delimiter "."), and '/' is not allowed in a name.
function maildirOf(mail: string, user: string, mailbox: string): string {
  const root = join(mail, user, 'Maildir');
  if (mailbox.toUpperCase() === 'INBOX') return root;
  if (!/^[\w +-]+(\.[\w +-]+)*$/.test(mailbox)) throw new Error(`seedMaildir cannot name ${mailbox}`);
  return join(root, `.${mailbox}`);
}

const maildirFlags: Record<string, string> = {
  '\\Draft': 'D',
  '\\Flagged': 'F',
  '\\Answered': 'R',
  '\\Seen': 'S',
  '\\Deleted': 'T',
};

let seedClock = 0; // microseconds

function seedMaildir(box: string, raws: (string | Buffer)[], flags: string[]): void {
  for (const d of ['', 'cur', 'new', 'tmp']) mkdirOwned(join(box, d));
  const info = flags
    .map((f) => {
      const letter = maildirFlags[f];
      if (!letter) throw new Error(`seedMaildir knows only system flags, not ${f}`);
      return letter;
    })
    .sort()
    .join('');
  // Dovecot gives new files their UIDs in the order of the time in their names (seconds, then the
  // M<microseconds> part), whatever order readdir() returns: a measured 20,000 seeded messages came back
  // with UIDs in seeding order. So each message gets the next microsecond of one clock that only moves
  // forward in this process, which also keeps names unique across calls. S=<size> saves a stat() each.
  const host = `skimmer${process.pid}`;
  raws.forEach((raw) => {
    const body = typeof raw === 'string' ? Buffer.from(raw) : raw;
    seedClock = Math.max(seedClock + 1, Date.now() * 1000);
    const sec = Math.floor(seedClock / 1e6);
    const name = `${sec}.M${seedClock % 1e6}P${process.pid}.${host},S=${body.length}`;
    const tmp = join(box, 'tmp', name);
    writeFileSync(tmp, body);
    if (isRoot) chownSync(tmp, mailUid, mailGid);
    // tmp/ then rename: a running Dovecot never sees half a message (the Maildir delivery protocol).
    renameSync(tmp, join(box, 'cur', `${name}:2,${info}`));
  });
}

function mkdirOwned(path: string): void {
  const parts = path.split('/');
  for (let i = 2; i <= parts.length; i++) {
    const p = parts.slice(0, i).join('/');
    if (existsSync(p)) continue;
    mkdirSync(p, { mode: 0o700 });
    if (isRoot) chownSync(p, mailUid, mailGid);
  }
  if (isRoot) chownSync(path, mailUid, mailGid);
}

// Live (not zombie) processes in a process group, from /proc: kill(-pgid, 0) cannot tell, because a
// dead child not yet reaped by pid 1 still counts as a member.
export function liveProcessesInGroup(pgid: number): number[] {
  const live: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') live.push(Number(entry));
  }
  return live;
}

// Waits up to graceMs for the group to end by itself, then SIGKILLs what is left and waits for that.
async function groupGone(pgid: number, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (liveProcessesInGroup(pgid).length > 0) {
    if (Date.now() >= deadline) killGroup(pgid, 'SIGKILL');
    await sleep(10);
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// True when the server on the port sends our greeting line ("* OK [CAPABILITY ...] <greeting>").
function saysHello(port: number, greeting: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\n')) done(got.startsWith('* OK') && got.includes(greeting));
    });
  });
}

function readTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no Dovecot log)';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// True if the promise settles within ms; the timer does not outlive the answer.
async function within(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** An IMAP account's login for this server's first user, as the code under test receives it. */
export function loginFor(
  server: Pick<Dovecot, 'host' | 'port' | 'users'>,
  accountId: number,
  name = 'test',
): AccountLogin {
  const user = server.users[0] as MailUser;
  return {
    id: accountId,
    name,
    user: user.user,
    password: user.pass,
    imap: { host: server.host, port: server.port, tls: 'none' },
    smtp: null,
    hasPassword: true,
    syncedAt: null,
    lastError: null,
    auth: 'password',
    needsSignIn: false,
  };
}
