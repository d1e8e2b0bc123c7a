// The `skimmer` command (DESIGN §13). It uses the same composition root as the desktop app and the
// browser mode. Errors go to stderr as one sentence with a non-zero exit code; `--json` prints one JSON
// object per line for scripts and tests.
import { readFileSync } from 'node:fs';
import { channels } from '../shared/contract.ts';
import { type ApprovalPolicy, runAgent, waitingCalls } from './ai/chat/agent.ts';
import { ask } from './ai/chat/ask.ts';
import type { Answer as CallAnswer, PendingCall } from './ai/chat/engine.ts';
import { groundedBounds } from './ai/grounded/bounds.ts';
import { summarizeThread } from './ai/grounded/long-thread.ts';
import { type Answer, parseQuestionFile } from './ai/judge/questions.ts';
import { connectForMail } from './ai/model-access.ts';
import { AiFailure } from './ai/protocol/errors.ts';
import { noticeMessage } from './ai/protocol/events.ts';
import { mailText } from './ai/tools/mail-tools.ts';
import { judgeMessages } from './ai/triage/judge-messages.ts';
import { type App, createApp } from './app.ts';
import { describeIssues, dispatch } from './bridge/dispatch.ts';
import { toFailure } from './bridge/errors.ts';
import {
  type Family,
  familyUsageSentence,
  readCommandLine,
  usageSentence,
  type Values,
} from './cli-flags.ts';
import { defaultDataDir } from './data-dir.ts';
import { DocumentError } from './documents/document-error.ts';
import { type Chunk, pickChunks, prepareDocuments } from './documents/documents.ts';
import { MailFailure } from './mail/imap/imap-connect.ts';
import { syncAndRecord } from './mail/imap/sync-and-record.ts';
import { MailError } from './mail/mail-error.ts';
import { prepareQueries } from './mail/store/queries.ts';
import { prepareSearch } from './mail/store/search.ts';
import { serve } from './web/server.ts';

type Out = { out: (line: string) => void; err: (line: string) => void };
const stdio: Out = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

class UsageError extends Error {}

export async function main(argv: string[], io: Out = stdio, signal?: AbortSignal): Promise<number> {
  // Each command takes only its own flags: whatever it does not take is refused before anything runs.
  const line = readCommandLine(argv, defaultDataDir());
  if (line.kind === 'help') {
    io.out(line.text);
    return 0;
  }
  if (line.kind === 'refused') {
    io.err(line.text);
    return 2;
  }
  const { family: command, args, values } = line;
  const run = commands[command];
  let app: App | undefined;
  try {
    // Only the long-running `serve` sends what waits in the outbox (a one-shot command exits before the undo
    // window ends) and keeps accounts in sync in the background.
    app = createApp({
      dataDir: values.data ?? defaultDataDir(),
      mode: 'browser',
      background: command === 'serve',
    });
    return await run(app, args, values, io, signal);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(e.message);
      return 2;
    }
    app?.log.error('cli', e);
    io.err(`Skimmer could not finish: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await app?.close();
  }
}

type Command = (app: App, args: string[], values: Values, io: Out, signal?: AbortSignal) => Promise<number>;

type Failure = { code: string; message: string; detail?: string };

// An expected failure as the bridge would say it (bridge/errors.ts), with the service's redacted detail when
// it gave one; null for anything else, which main() logs.
function failureOf(e: unknown): Failure | null {
  const failure = toFailure(e);
  if (!failure) return null;
  return e instanceof AiFailure && e.providerDetail ? { ...failure, detail: e.providerDetail } : failure;
}

// Every failure a command ends with is printed this one way: a JSON line with --json, else the sentence (and
// the detail) on stderr.
function printFailure(io: Out, values: Values, failure: Failure): void {
  if (values.json) io.out(JSON.stringify({ type: 'error', ...failure }));
  else io.err(failure.detail ? `${failure.message} ${failure.detail}` : failure.message);
}

// Runs one bridge channel for the CLI: the same dispatch (schema first) as the app, errors as sentences.
async function bridgeCall(
  app: App,
  channel: string,
  request: unknown,
  io: Out,
): Promise<{ ok: true; value: unknown } | { ok: false; exitCode: number }> {
  const response = await dispatch(app.handlers, channel, request, true, (c, e) =>
    app.log.error(`cli_${c}`, e),
  );
  if (response.ok) return { ok: true, value: response.value };
  io.err(response.error.message);
  return { ok: false, exitCode: response.error.code === 'invalid_request' ? 2 : 1 };
}

// Prints a tool-using run: JSON lines with --json (start, text, tool_call, tool_result, interrupted, then
// done or error), readable lines otherwise. Waiting for approval is not a failure: exit 0.
async function agentCommand(
  app: App,
  request: Parameters<typeof runAgent>[1],
  values: Values,
  io: Out,
  signal?: AbortSignal,
): Promise<number> {
  const print = (o: object) => io.out(JSON.stringify(o));
  let code = 0;
  try {
    for await (const e of runAgent(app, request, signal ? { signal } : {})) {
      if (values.json) {
        if (e.type === 'done' || e.type === 'interrupted' || e.type === 'error') {
          const { turns: _turns, status: _status, ...rest } = e;
          print(rest);
        } else print(e);
      } else if (e.type === 'text') process.stdout.write(e.text);
      else if (e.type === 'tool_call') io.err(`\n[${e.name} ${JSON.stringify(e.args)}]`);
      else if (e.type === 'interrupted') {
        io.out('\nWaiting for your approval:');
        for (const c of e.calls) io.out(`  ${c.id}  ${c.name} ${JSON.stringify(c.args)}`);
      } else if (e.type === 'notice') io.err(`\n${e.message}`);
      else if (e.type === 'done') io.out('');
      if (e.type === 'error') {
        code = 1;
        if (!values.json) io.err(`\n${e.message}`);
      }
    }
  } catch (e) {
    const failure = failureOf(e);
    if (!failure) throw e;
    printFailure(io, values, failure);
    return 1;
  }
  return code;
}

// SECURITY: `--approve ID` decides the one waiting call Skimmer listed under that id, bound to the hash of
// the arguments it listed; an id that is not waiting, or named twice, is refused before anything runs.
function resumeAnswers(waiting: readonly PendingCall[], approve: string[], deny: string[]): CallAnswer[] {
  const named = [
    ...approve.map((id) => ({ id, decision: 'approve' as const })),
    ...deny.map((id) => ({ id, decision: 'deny' as const })),
  ];
  const seen = new Set<string>();
  return named.map(({ id, decision }) => {
    if (seen.has(id)) throw new UsageError(`Call ${id} is named twice; give each call one answer.`);
    seen.add(id);
    const calls = waiting.filter((c) => c.id === id);
    if (calls.length === 0) throw new UsageError(`No call ${id} is waiting in this conversation.`);
    // Only a turn stored before Skimmer named calls itself can repeat an id.
    if (calls.length > 1)
      throw new UsageError(`Two waiting calls share the id ${id}; answer them in the app.`);
    return { id, argsHash: calls[0]?.argsHash ?? '', decision };
  });
}

// The messages a judge command names: one or more ids, the best matches of a search, or all, newest first.
function messageIds(app: App, values: Values): number[] {
  if (values.message !== undefined) {
    return values.message.map((m) => {
      const id = Number(m);
      if (!Number.isInteger(id) || id <= 0) throw new UsageError(`--message takes a message id, not "${m}".`);
      return id;
    });
  }
  if (values.query !== undefined) return prepareSearch(app.db)(values.query, 10_000).map((h) => h.id);
  return app.db.prepare('SELECT id FROM messages ORDER BY date DESC, id DESC').pluck().all() as number[];
}

function answerText(a: Answer): string {
  switch (a.type) {
    case 'predicate':
      return `${a.name} ${a.probability.toFixed(2)}`;
    case 'choice':
      return `${a.name} ${String(a.choice)}`;
    case 'score':
      return `${a.name} ${a.score.toFixed(1)}`;
    case 'refusal':
      return `${a.name} refused`;
  }
}

// Each message of a thread is a source named by its id, so a citation leads back to the message.
function threadSourcesOf(app: App, threadId: number) {
  const thread = prepareQueries(app.db).thread(threadId);
  if (!thread) throw new MailError('not_found', 'That conversation is not in the mailbox.');
  return thread.messages.map((m) => ({
    id: `m${m.id}`,
    title: `${m.subject} — ${m.from.name || m.from.address}`,
    text: mailText(m).text,
  }));
}

// Documents are imported (once: the same file is the same document), then cut into chunks named d<doc>c<n>.
// With a question only the chunks that match it are sent; a summary reads them all, in parts if need be.
async function documentSourcesOf(app: App, paths: readonly string[], question: string | undefined, io: Out) {
  const documents = prepareDocuments(app.db, app.places);
  const perDocument: Chunk[][] = [];
  for (const path of paths) {
    // A file it cannot read fails the command as `invalid_request`, in the documents module's sentence.
    const imported = await documents.import(path);
    if (imported.chunks === 0)
      io.err(`${imported.name} has no text to read (a scanned PDF needs OCR first).`);
    const all = documents.chunks(imported.id);
    const relevant = question ? documents.relevant(imported.id, question, groundedBounds.maxSources) : [];
    perDocument.push(question ? (relevant.length > 0 ? relevant : all) : all);
  }
  const chunks = question
    ? pickChunks(perDocument, groundedBounds.maxSources, groundedBounds.allSourcesBytes - 1024)
    : perDocument.flat();
  if (chunks.length === 0) throw new DocumentError('no_text', 'The documents have no text to read.');
  return chunks.map((c) => ({ id: c.id, title: c.title, text: c.text }));
}

function accountId(app: App, name: string): number {
  const account = app.accounts.list().find((a) => a.name === name);
  if (!account) throw new UsageError(`There is no account named "${name}": see \`skimmer account list\`.`);
  return account.id;
}

function serviceId(app: App, name: string): number {
  const service = app.services.list().find((s) => s.name === name);
  if (!service) throw new UsageError(`There is no service named "${name}": see \`skimmer service list\`.`);
  return service.id;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

const commands: Record<Family, Command> = {
  async import(app, args, values, io, signal) {
    if (args.length === 0) throw new UsageError('Name at least one file or folder to import.');
    const request = channels['mail:import'].request.safeParse({ paths: args });
    if (!request.success) throw new UsageError(describeIssues(request.error.issues));
    let lastShown = 0;
    const showProgress = !values.json && process.stderr.isTTY;
    const result = await new Promise<{ code: number }>((resolve) => {
      const job = app.importFiles(args, (e) => {
        if (e.type === 'import_progress' && showProgress && Date.now() - lastShown > 500) {
          lastShown = Date.now();
          const eta = e.etaSeconds === null ? '' : `, about ${e.etaSeconds} s left`;
          process.stderr.write(`\r${e.messages} messages, ${e.perSecond}/s${eta}   `);
        } else if (e.type === 'import_done') {
          if (showProgress) process.stderr.write('\n');
          const s = e.summary;
          if (values.json) io.out(JSON.stringify(s));
          else {
            io.out(
              `Imported ${s.imported} messages, ${s.duplicates} already there, ${s.failed.length} failed.`,
            );
            for (const f of s.failed) io.out(`  failed: ${f.source}: ${f.reason}`);
            if (e.cancelled) io.out('The import was stopped; what was read so far is kept.');
          }
          resolve({ code: e.cancelled ? 130 : 0 });
        } else if (e.type === 'error') {
          io.err(e.error.message);
          resolve({ code: 1 });
        }
      });
      signal?.addEventListener('abort', () => job.cancel(), { once: true });
    });
    return result.code;
  },

  async search(app, args, values, io) {
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (values.documents) {
      const r = await bridgeCall(app, 'documents:search', { query: args.join(' '), limit }, io);
      if (!r.ok) return r.exitCode;
      const hits = channels['documents:search'].response.parse(r.value);
      for (const h of hits)
        io.out(values.json ? JSON.stringify(h) : `${h.name}, ${h.location}  [${h.id}]\n    ${h.snippet}`);
      if (!values.json && hits.length === 0) io.out('No document matches.');
      return 0;
    }
    const r = await bridgeCall(app, 'mail:search', { query: args.join(' '), limit }, io);
    if (!r.ok) return r.exitCode;
    const hits = channels['mail:search'].response.parse(r.value);
    for (const h of hits) {
      if (values.json) io.out(JSON.stringify(h));
      else
        io.out(`${new Date(h.date).toISOString().slice(0, 10)}  ${h.from}  ${h.subject}\n    ${h.snippet}`);
    }
    if (!values.json && hits.length === 0) io.out('No messages match.');
    return 0;
  },

  async service(app, args, values, io) {
    const [sub, name, ...rest] = args;
    if (sub === 'list' && name === undefined) {
      const r = await bridgeCall(app, 'service:list', {}, io);
      if (!r.ok) return r.exitCode;
      const list = channels['service:list'].response.parse(r.value);
      for (const s of list) {
        if (values.json) io.out(JSON.stringify(s));
        else io.out(`${s.name}  ${s.kind}  ${s.endpoint}  ${s.hasKey ? 'key saved' : 'no key'}`);
      }
      if (!values.json && list.length === 0)
        io.out('No model services yet: add one with `skimmer service add`.');
      return 0;
    }
    if (sub === 'add' && name !== undefined && rest.length === 0) {
      if (!values.kind || !values.base) throw new UsageError('service add needs --kind and --base.');
      const key = values['key-stdin'] ? await readStdin() : undefined;
      if (values['key-stdin'] && !key)
        throw new UsageError('--key-stdin was given but standard input was empty.');
      const r = await bridgeCall(
        app,
        'service:add',
        { name, kind: values.kind, baseUrl: values.base, key },
        io,
      );
      if (!r.ok) return r.exitCode;
      const s = channels['service:add'].response.parse(r.value);
      if (values.json) io.out(JSON.stringify(s));
      else
        io.out(
          `Added ${s.name}: requests go to ${s.endpoint}${s.hasKey ? ' (key saved)' : ''}. ${app.vault.info.message}`,
        );
      return 0;
    }
    if (sub === 'consent' && name !== undefined && rest.length === 0) {
      if (values.allow === values.revoke)
        throw new UsageError('Use `skimmer service consent NAME --allow` or `--revoke`.');
      const r = await bridgeCall(
        app,
        'service:consent',
        { id: serviceId(app, name), allow: values.allow },
        io,
      );
      if (!r.ok) return r.exitCode;
      const s = channels['service:consent'].response.parse(r.value);
      if (values.json) io.out(JSON.stringify(s));
      else if (!s.remote)
        io.out(`${s.name} is on this computer: mail never leaves it, so no consent is needed.`);
      else
        io.out(
          s.mailAllowed
            ? `Mail and documents may now go to ${s.endpoint}.`
            : `Mail and documents will not go to ${s.endpoint}.`,
        );
      return 0;
    }
    if (sub === 'test' && name !== undefined && rest.length === 0) {
      const r = await bridgeCall(app, 'service:test', { id: serviceId(app, name) }, io);
      if (!r.ok) return r.exitCode;
      const t = channels['service:test'].response.parse(r.value);
      if (values.json) io.out(JSON.stringify(t));
      else (t.ok ? io.out : io.err)(t.message);
      return t.ok ? 0 : 1;
    }
    if (sub === 'models' && name !== undefined && rest.length === 0) {
      const r = await bridgeCall(app, 'service:models', { id: serviceId(app, name) }, io);
      if (!r.ok) return r.exitCode;
      const models = channels['service:models'].response.parse(r.value);
      if (!models.listed) {
        io.err(models.reason);
        return 1;
      }
      for (const m of models.models)
        io.out(values.json ? JSON.stringify({ model: `${name}/${m}` }) : `${name}/${m}`);
      return 0;
    }
    throw new UsageError(familyUsageSentence('service'));
  },

  async account(app, args, values, io, signal) {
    const [sub, name, ...rest] = args;
    const print = (o: object) => io.out(JSON.stringify(o));
    if (sub === 'list' && name === undefined) {
      const r = await bridgeCall(app, 'account:list', {}, io);
      if (!r.ok) return r.exitCode;
      const list = channels['account:list'].response.parse(r.value);
      for (const a of list) {
        if (values.json) print(a);
        else {
          const synced = a.syncedAt ? `synced ${new Date(a.syncedAt).toISOString()}` : 'never synced';
          io.out(
            `${a.name}  ${a.user}  ${a.imap.host}:${a.imap.port} (${a.imap.tls})  ${synced}${a.lastError ? `  last error: ${a.lastError}` : ''}`,
          );
        }
      }
      if (!values.json && list.length === 0)
        io.out('No mail accounts yet: add one with `skimmer account add`.');
      return 0;
    }
    if (sub === 'add' && name !== undefined && rest.length === 0) {
      const server = (host?: string, port?: string, tls?: string) => {
        if (!host || !port || !tls) return undefined;
        const n = Number(port);
        if (!Number.isInteger(n)) throw new UsageError(`The port "${port}" is not a number.`);
        if (!['tls', 'starttls', 'none'].includes(tls))
          throw new UsageError('TLS takes one of tls, starttls or none.');
        return { host, port: n, tls };
      };
      const imap = server(values['imap-host'], values['imap-port'], values.tls);
      if (!imap || !values.user) {
        throw new UsageError('account add needs --imap-host, --imap-port, --tls and --user.');
      }
      const smtpGiven = values['smtp-host'] ?? values['smtp-port'] ?? values['smtp-tls'];
      const smtp = server(values['smtp-host'], values['smtp-port'], values['smtp-tls']);
      if (smtpGiven && !smtp) throw new UsageError('Give --smtp-host, --smtp-port and --smtp-tls together.');
      if (!values['password-stdin'])
        throw new UsageError('Pass the password on standard input with --password-stdin.');
      // SECURITY: the password comes on stdin, never as an argument (visible to every user in `ps`).
      const password = await readStdin();
      if (!password) throw new UsageError('--password-stdin was given but standard input was empty.');
      const r = await bridgeCall(
        app,
        'account:add',
        { name, user: values.user, password, imap, ...(smtp ? { smtp } : {}) },
        io,
      );
      if (!r.ok) return r.exitCode;
      const a = channels['account:add'].response.parse(r.value);
      if (values.json) print(a);
      else io.out(`Added ${a.name} (${a.user} at ${a.imap.host}). ${app.vault.info.message}`);
      return 0;
    }
    if (sub === 'test' && name !== undefined && rest.length === 0) {
      const r = await bridgeCall(app, 'account:test', { id: accountId(app, name) }, io);
      if (!r.ok) return r.exitCode;
      const t = channels['account:test'].response.parse(r.value);
      if (values.json) print(t);
      else (t.ok ? io.out : io.err)(t.message);
      return t.ok ? 0 : 1;
    }
    if (sub === 'sync' && name !== undefined && rest.length === 0) {
      if (!values.once)
        throw new UsageError('Use `skimmer account sync NAME --once` (the app keeps syncing by itself).');
      const id = accountId(app, name);
      const controller = new AbortController();
      signal?.addEventListener('abort', () => controller.abort(), { once: true });
      let lastShown = 0;
      try {
        const summary = await syncAndRecord(app, id, {
          signal: controller.signal,
          onProgress: (p) => {
            if (values.json || !process.stderr.isTTY || Date.now() - lastShown < 500) return;
            lastShown = Date.now();
            process.stderr.write(`\r${p.folder}: ${p.done} of ${p.total} new messages   `);
          },
        });
        if (values.json) print(summary);
        else {
          if (process.stderr.isTTY) process.stderr.write('\n');
          io.out(
            `Synced ${summary.folders} folders, ${summary.messages} messages: ${summary.added} new, ${summary.removed} removed, ${summary.flagsChanged} flag changes.`,
          );
        }
        return 0;
      } catch (e) {
        if (!(e instanceof MailFailure)) throw e;
        if (values.json) print({ type: 'error', code: e.code, message: e.message });
        else io.err(e.message);
        return e.code === 'cancelled' ? 130 : 1;
      }
    }
    throw new UsageError(familyUsageSentence('account'));
  },

  async judge(app, args, values, io, signal) {
    const [model, ...extra] = args;
    if (!model || extra.length > 0 || !values.questions) {
      throw new UsageError(usageSentence('judge'));
    }
    const scopes = [values.message !== undefined, values.query !== undefined, values.all].filter(
      Boolean,
    ).length;
    if (scopes !== 1)
      throw new UsageError('Name the messages with exactly one of --message ID, --query Q or --all.');
    let file: unknown;
    try {
      file = JSON.parse(readFileSync(values.questions, 'utf8'));
    } catch (e) {
      throw new UsageError(
        `The questions file could not be read as JSON: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const print = (o: object) => io.out(JSON.stringify(o));
    const parsedFile = parseQuestionFile(file);
    if (!parsedFile.ok) {
      printFailure(io, values, { code: 'invalid_request', message: parsedFile.reason });
      return 2;
    }
    const ids = messageIds(app, values);
    let failed = false;
    try {
      const result = await judgeMessages(
        app,
        { model, questions: parsedFile.questions, messageIds: ids },
        {
          ...(signal ? { signal } : {}),
          onResult: (r) => {
            if (!r.ok) {
              failed = true;
              if (values.json)
                print({ type: 'error', code: r.code, message: r.message, messageId: r.messageId });
              else io.err(`#${r.messageId}: ${r.message}`);
            } else if (values.json) print({ messageId: r.messageId, answers: r.answers });
            else
              io.out(
                `#${r.messageId}  ${r.answers.map(answerText).join(' · ')}${r.certainty === 'binary' ? '  (yes/no only)' : ''}`,
              );
          },
        },
      );
      if (!values.json) {
        io.out(`${result.answered} asked, ${result.cached} from the cache, ${result.failed} failed.`);
        if (result.stopped) io.err(`Stopped: ${result.stopped.message}`);
      }
      return failed || result.stopped ? 1 : 0;
    } catch (e) {
      const failure = failureOf(e);
      if (!failure) throw e;
      printFailure(io, values, failure);
      return failure.code === 'invalid_request' ? 2 : 1;
    }
  },

  async summarize(app, args, values, io, signal) {
    const [model, ...extra] = args;
    const threadId = Number(values.thread);
    const docs = values.doc ?? [];
    const byThread = values.thread !== undefined;
    if (
      !model ||
      extra.length > 0 ||
      byThread === docs.length > 0 ||
      (byThread && !(Number.isInteger(threadId) && threadId > 0))
    ) {
      throw new UsageError(usageSentence('summarize'));
    }
    const print = (o: object) => io.out(JSON.stringify(o));
    try {
      const { model: modelName, connection } = await connectForMail(app.services, model);
      const sources = byThread
        ? threadSourcesOf(app, threadId)
        : await documentSourcesOf(app, docs, values.question, io);
      // A thread over the bounds is summarised in parts whose citations still name its messages.
      const result = await summarizeThread(connection, modelName, sources, {
        ...(signal ? { signal } : {}),
        ...(values.question ? { question: values.question } : {}),
      });
      if (values.json) print({ answer: result.answer, citations: result.citations, cited: result.cited });
      else {
        io.out(result.answer);
        io.out(
          result.cited
            ? `\nCited: ${result.sources.map((s) => `[${s.id}] ${s.title}`).join('; ')} (checked to exist, not checked to be true)`
            : '\nUncited draft: the model gave no citations.',
        );
      }
      return 0;
    } catch (e) {
      // Skimmer's sentence, and the (redacted) detail: the bound that was passed, or the provider's words.
      const failure = failureOf(e);
      if (!failure) throw e;
      printFailure(io, values, failure);
      return failure.code === 'invalid_request' ? 2 : 1;
    }
  },

  async ask(app, args, values, io, signal) {
    const [model, ...words] = args;
    const prompt = words.join(' ').trim();
    if (!model || !prompt) throw new UsageError(usageSentence('ask'));
    const conversationId = values.conversation === undefined ? undefined : Number(values.conversation);
    if (conversationId !== undefined && !(Number.isInteger(conversationId) && conversationId > 0)) {
      throw new UsageError('--conversation takes the number `skimmer ask --json` printed as conversationId.');
    }
    if (values.tools) {
      const [policy, ...extra] = values.approve ?? ['none'];
      if (extra.length > 0 || !['none', 'read', 'all'].includes(policy ?? '')) {
        throw new UsageError('--approve takes one of none, read or all.');
      }
      return agentCommand(
        app,
        { model, prompt, conversationId, policy: policy as ApprovalPolicy },
        values,
        io,
        signal,
      );
    }
    const print = (o: object) => io.out(JSON.stringify(o));
    let failed = false;
    try {
      for await (const e of ask(
        app,
        { model, prompt, conversationId },
        {
          signal,
          onRetry: ({ waitMs }) =>
            values.json
              ? print({ type: 'retrying', seconds: Math.ceil(waitMs / 1000) })
              : io.err(`The service is busy; retrying in ${Math.ceil(waitMs / 1000)} s.`),
        },
      )) {
        if (e.type === 'start' && values.json) print(e);
        else if (e.type === 'text_delta')
          values.json ? print({ type: 'text', text: e.text }) : process.stdout.write(e.text);
        else if (e.type === 'usage' && values.json) print(e);
        else if (e.type === 'error' && !e.terminal)
          // Part of the answer could not be read; the answer goes on (DESIGN §6).
          values.json
            ? print({ type: 'notice', code: e.code, message: noticeMessage })
            : io.err(`\n${noticeMessage}`);
        else if (e.type === 'message_stop')
          values.json ? print({ type: 'done', stopReason: e.stopReason }) : io.out('');
        else if (e.type === 'aborted' || (e.type === 'error' && e.terminal)) {
          failed = true;
          const error =
            e.type === 'aborted'
              ? { code: 'cancelled', message: 'The request was stopped.' }
              : {
                  code: e.code,
                  message: e.message,
                  ...(e.providerDetail ? { detail: e.providerDetail } : {}),
                };
          if (values.json) print({ type: 'error', ...error });
          else io.err(`\n${error.message}${'detail' in error ? ` (${error.detail})` : ''}`);
        }
      }
    } catch (e) {
      const failure = failureOf(e);
      if (!failure) throw e;
      printFailure(io, values, failure);
      return 1;
    }
    return failed ? 1 : 0;
  },

  async resume(app, args, values, io, signal) {
    const [id, ...rest] = args;
    const conversationId = Number(id);
    if (!id || rest.length > 0 || !(Number.isInteger(conversationId) && conversationId > 0)) {
      throw new UsageError('Use `skimmer resume CONVERSATION [--approve CALL…] [--deny CALL…]`.');
    }
    const model = values.model ?? app.conversations.summary(conversationId)?.model;
    if (!model) throw new UsageError(`There is no conversation ${conversationId}.`);
    const answers = resumeAnswers(
      waitingCalls(app, conversationId, 'none').map((w) => w.call),
      values.approve ?? [],
      values.deny ?? [],
    );
    return agentCommand(app, { model, conversationId, answers, policy: 'none' }, values, io, signal);
  },

  async serve(app, _args, values, io, signal) {
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError('--port must be a number from 0 to 65535.');
    }
    // Each address opens Skimmer in one browser (DESIGN §13): once one is used, the next is printed.
    const served = await serve(app, {
      port,
      onOpened: (next) =>
        io.out(
          values.json
            ? JSON.stringify({ url: next, port: served.port })
            : `Opened in a browser. To open Skimmer in another browser (or after closing this one), use ${next}`,
        ),
    });
    if (values.json) io.out(JSON.stringify({ url: served.url, port: served.port }));
    else
      io.out(
        `Skimmer is running at ${served.url}\nOpen that address in your browser (it works once); press Ctrl+C to stop.`,
      );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      signal?.addEventListener('abort', stop, { once: true });
    });
    await served.close();
    return 0;
  },
};
