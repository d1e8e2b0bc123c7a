// Asks a mail server what it is, without a password: connects (implicit TLS, or plain text and then STARTTLS),
// checks its certificate against the host name, reads the IMAP greeting and CAPABILITY or the SMTP greeting and
// EHLO, and leaves (LOGOUT, QUIT). Used for the usual host names (imap.DOMAIN…) and to check where SRV records
// point. SECURITY: nothing here authenticates; no password or token is ever in reach of this file.
import { connect as plainConnect, type Socket } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { rootsWith } from '../../extra-ca.ts';
import type { Dns } from './dns.ts';

export type ProbeOptions = {
  dns: Dns;
  ca?: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
};

export type ProbeResult =
  | { ok: true; capabilities: string[] }
  | {
      ok: false;
      /** unreachable: no answer or no such host; no_tls: it answered without TLS; not_mail: not that protocol. */
      why: 'unreachable' | 'no_tls' | 'bad_certificate' | 'not_mail';
      sentence: string;
    };

class ProbeEnd extends Error {
  readonly why: Extract<ProbeResult, { ok: false }>['why'];
  constructor(why: ProbeEnd['why'], message: string) {
    super(message);
    this.why = why;
  }
}

// A hostile server could stream forever: a probe reads at most this much.
const maxProbeBytes = 64 * 1024;

const certCodes =
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH/;
// What OpenSSL says when the other side answered in plain text instead of a TLS handshake.
const plainAnswer =
  /WRONG_VERSION_NUMBER|wrong version number|packet length too long|unknown protocol|http request/i;

/** Reads CRLF lines from a socket (and from the TLS socket that replaces it after STARTTLS). */
class Lines {
  private buffer = '';
  private read = 0;
  private waiting: (() => void) | null = null;
  private failure: Error | null = null;
  socket: Socket | TLSSocket;

  constructor(socket: Socket | TLSSocket) {
    this.socket = socket;
    this.attach(socket);
  }

  attach(socket: Socket | TLSSocket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.read += chunk.length;
      if (this.read > maxProbeBytes) {
        this.fail(new ProbeEnd('not_mail', 'it sent more than a mail server says before a login'));
        socket.destroy();
        return;
      }
      this.buffer += chunk.toString('latin1');
      this.wake();
    });
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => this.fail(new ProbeEnd('unreachable', 'it closed the connection')));
  }

  /** Stops reading from the plain socket: what follows is TLS, read by the socket that wraps it. */
  detach() {
    this.socket.removeAllListeners('data');
    this.socket.removeAllListeners('close');
  }

  fail(e: Error) {
    this.failure ??= e;
    this.wake();
  }

  private wake() {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }

  async line(): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf('\n');
      if (end >= 0) {
        const line = this.buffer.slice(0, end).replace(/\r$/, '');
        this.buffer = this.buffer.slice(end + 1);
        return line;
      }
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }

  send(text: string) {
    this.socket.write(`${text}\r\n`);
  }
}

function describe(e: unknown, host: string, port: number): ProbeEnd {
  if (e instanceof ProbeEnd) return e;
  const err = e as NodeJS.ErrnoException;
  const code = err.code ?? '';
  const text = `${code} ${err.message ?? ''}`;
  if (plainAnswer.test(text)) return new ProbeEnd('no_tls', 'it answered without TLS');
  if (certCodes.test(code))
    return new ProbeEnd('bad_certificate', `its TLS certificate is not valid for ${host} (${code})`);
  if (code === 'ENOTFOUND') return new ProbeEnd('unreachable', `${host} has no address in DNS`);
  if (code === 'ETIMEOUT') return new ProbeEnd('unreachable', `DNS did not answer for ${host}`);
  if (code === 'ECONNREFUSED') return new ProbeEnd('unreachable', `nothing listens on port ${port}`);
  return new ProbeEnd('unreachable', `the connection failed (${code || err.message})`);
}

function secured(socket: TLSSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('secureConnect', () => resolve());
    socket.once('error', reject);
  });
}

async function open(host: string, port: number, implicitTls: boolean, o: ProbeOptions): Promise<Lines> {
  if (implicitTls) {
    const socket = tlsConnect({
      host,
      port,
      servername: host,
      lookup: o.dns.lookup,
      ...(o.ca ? { ca: rootsWith(o.ca) } : {}),
    });
    const lines = new Lines(socket);
    await secured(socket);
    return lines;
  }
  const socket = plainConnect({ host, port, lookup: o.dns.lookup });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return new Lines(socket);
}

async function upgrade(lines: Lines, host: string, o: ProbeOptions): Promise<void> {
  lines.detach();
  const socket = tlsConnect({
    socket: lines.socket as Socket,
    servername: host,
    ...(o.ca ? { ca: rootsWith(o.ca) } : {}),
  });
  lines.attach(socket);
  await secured(socket);
}

async function imapDialog(lines: Lines, host: string, starttls: boolean, o: ProbeOptions): Promise<string[]> {
  const greeting = await lines.line();
  if (!/^\* (OK|PREAUTH)\b/i.test(greeting))
    throw new ProbeEnd('not_mail', 'it did not greet as an IMAP server');
  const capabilities = async (tag: string) => {
    lines.send(`${tag} CAPABILITY`);
    let caps: string[] = [];
    for (;;) {
      const line = await lines.line();
      const m = /^\* CAPABILITY (.*)$/i.exec(line);
      if (m?.[1]) caps = m[1].trim().split(/\s+/);
      if (line.startsWith(`${tag} `)) return caps;
    }
  };
  let caps = await capabilities('s1');
  if (starttls) {
    if (!caps.some((c) => c.toUpperCase() === 'STARTTLS')) {
      throw new ProbeEnd('no_tls', 'it does not offer STARTTLS');
    }
    lines.send('s2 STARTTLS');
    if (!/^s2 OK/i.test(await lines.line())) throw new ProbeEnd('no_tls', 'it refused STARTTLS');
    await upgrade(lines, host, o);
    caps = await capabilities('s3');
  }
  lines.send('s9 LOGOUT');
  return caps;
}

async function smtpDialog(lines: Lines, host: string, starttls: boolean, o: ProbeOptions): Promise<string[]> {
  const reply = async (): Promise<{ code: string; lines: string[] }> => {
    const out: string[] = [];
    for (;;) {
      const line = await lines.line();
      out.push(line.slice(4));
      if (!/^\d{3}[- ]/.test(line)) throw new ProbeEnd('not_mail', 'it did not answer as an SMTP server');
      if (line[3] === ' ') return { code: line.slice(0, 3), lines: out };
    }
  };
  if ((await reply()).code !== '220') throw new ProbeEnd('not_mail', 'it did not greet as an SMTP server');
  // An address literal: the probe says nothing about this computer's name.
  const ehlo = async () => {
    lines.send('EHLO [127.0.0.1]');
    const r = await reply();
    if (r.code !== '250') throw new ProbeEnd('not_mail', 'it refused EHLO');
    return r.lines.slice(1).map((l) => l.trim());
  };
  let caps = await ehlo();
  if (starttls) {
    if (!caps.some((c) => c.toUpperCase() === 'STARTTLS')) {
      throw new ProbeEnd('no_tls', 'it does not offer STARTTLS');
    }
    lines.send('STARTTLS');
    if ((await reply()).code !== '220') throw new ProbeEnd('no_tls', 'it refused STARTTLS');
    await upgrade(lines, host, o);
    caps = await ehlo();
  }
  lines.send('QUIT');
  return caps;
}

/** What `host:port` answers for `protocol` with that TLS mode; never throws. */
export async function probe(
  protocol: 'imap' | 'smtp',
  host: string,
  port: number,
  tls: 'tls' | 'starttls',
  o: ProbeOptions,
): Promise<ProbeResult> {
  let lines: Lines | null = null;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ProbeEnd('unreachable', `no answer within ${o.timeoutMs / 1000} s`)),
      o.timeoutMs,
    );
  });
  const aborted = o.signal
    ? new Promise<never>((_, reject) =>
        o.signal?.addEventListener('abort', () => reject(new ProbeEnd('unreachable', 'stopped')), {
          once: true,
        }),
      )
    : null;
  const talk = async () => {
    lines = await open(host, port, tls === 'tls', o);
    return (protocol === 'imap' ? imapDialog : smtpDialog)(lines, host, tls === 'starttls', o);
  };
  try {
    const capabilities = await Promise.race([talk(), expired, ...(aborted ? [aborted] : [])]);
    return { ok: true, capabilities };
  } catch (e) {
    const end = describe(e, host, port);
    return { ok: false, why: end.why, sentence: end.message };
  } finally {
    clearTimeout(timer);
    (lines as Lines | null)?.socket.destroy();
  }
}
