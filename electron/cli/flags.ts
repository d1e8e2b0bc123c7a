// The `skimmer` command line (DESIGN §13): each command's usage and the flags it takes, one table per command,
// and the parsing that holds a command to its own table. The whole help is composed from these entries, so a
// usage line is written once, beside the flags it describes. Pure: no I/O; electron/cli/main.ts prints and
// exits.
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

type Spec = {
  /** What follows `skimmer`, one entry a line (a continuation is indented under the first). */
  usage: readonly string[];
  /** What the command does, one entry a line. */
  summary: readonly string[];
  flags: ParseArgsOptionsConfig;
};

// Flags every command takes, and the only ones allowed before the command.
const globalFlags = {
  data: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig;

const globalHelp = (dataDir: string) => [
  `  --data DIR    data folder (or SKIMMER_DATA_DIR; default: ${dataDir})`,
  '  --json        print one JSON object per line',
  "  --help        print this help, or one command's (skimmer COMMAND --help)",
];

// A family (`service`, `account`) is its subcommands, each a command with its own table: `service list` takes
// no --kind. The order is the order of the help.
const specs = {
  import: {
    usage: ['import PATH…'],
    summary: ['import .eml files, .mbox files and Maildir folders'],
    flags: {},
  },
  search: {
    usage: ['search QUERY [--limit N] [--relevance] [--documents]'],
    summary: [
      'search mail, one hit per thread, newest first: words, "phrase", AND, OR, NOT or -word, prefix*,',
      'from: to: cc: subject: body: is:unread|read|starred has:attachment label: in: after: before:',
      '(YYYY-MM-DD, local time) newer_than: older_than: (7d 2w 3m 1y), as in Gmail; quote the query',
      'for your shell: skimmer search \'label:"Project X" is:unread\'. --relevance lists the best',
      'matches first; --documents searches documents',
    ],
    flags: {
      limit: { type: 'string' },
      relevance: { type: 'boolean', default: false },
      documents: { type: 'boolean', default: false },
    },
  },
  show: {
    usage: ['show MESSAGE_ID'],
    summary: [
      'print a message (its id from search --json): headers, text, attachments and',
      "Skimmer's warnings about it; --json prints them as one object with warnings: [{kind, text}]",
    ],
    flags: {},
  },
  'attachment list': {
    usage: ['attachment list MESSAGE_ID'],
    summary: ["list a message's attachments, numbered from 1: name, type and size"],
    flags: {},
  },
  'attachment save': {
    usage: ['attachment save MESSAGE_ID [INDEX|--all] [--to DIR]'],
    summary: [
      'save an attachment (or --all; the only one when no INDEX) into DIR (default: here),',
      'read from where the message lives (its imported file, or its IMAP server); a name from',
      'mail never picks the path, an existing file is never replaced (" (2)" instead)',
    ],
    flags: { all: { type: 'boolean', default: false }, to: { type: 'string' } },
  },
  serve: {
    usage: ['serve [--port N]'],
    summary: ['run Skimmer in the browser on 127.0.0.1'],
    flags: { port: { type: 'string' } },
  },
  mcp: {
    usage: ['mcp [--read-only] [--approval-timeout SECONDS] [--approve-in app|client]'],
    summary: [
      'serve the mailbox to an outside agent (Claude Desktop, Cursor, …) over MCP on',
      'standard input and output; changes ask you first, in the client or in the',
      'Skimmer app (default wait: 300 s); sends and deletes only in the app unless',
      '--approve-in client; --read-only offers only search and reading',
    ],
    flags: {
      'read-only': { type: 'boolean', default: false },
      'approval-timeout': { type: 'string' },
      'approve-in': { type: 'string' },
    },
  },
  'service add': {
    usage: ['service add NAME --kind KIND --base URL [--key-stdin]'],
    summary: [
      'add a model service (KIND: openai, openai-responses, anthropic,',
      'decisions, systemone); the key is read from standard input',
    ],
    flags: {
      kind: { type: 'string' },
      base: { type: 'string' },
      'key-stdin': { type: 'boolean', default: false },
    },
  },
  'service list': {
    usage: ['service list'],
    summary: ['list model services (keys are never shown)'],
    flags: {},
  },
  'service models': {
    usage: ['service models NAME'],
    summary: ['ask the service which models it offers'],
    flags: {},
  },
  'service consent': {
    usage: ['service consent NAME --allow|--revoke'],
    summary: [
      'let mail and documents go to a service that is not on this',
      'computer (asked once per service, and again after an edit)',
    ],
    flags: { allow: { type: 'boolean', default: false }, revoke: { type: 'boolean', default: false } },
  },
  'service test': {
    usage: ['service test NAME'],
    summary: ['check that the service answers and accepts the key'],
    flags: {},
  },
  'account add': {
    usage: [
      'account add NAME --imap-host H --imap-port N --tls tls|starttls|none --user U --password-stdin',
      '[--smtp-host H --smtp-port N --smtp-tls tls|starttls|none]',
      'account add NAME --oauth PRESET|ISSUER_URL --client-id ID --user ADDRESS [--client-secret S]',
      '[--imap-host H --imap-port N --tls … --smtp-host H --smtp-port N --smtp-tls …]',
    ],
    summary: [
      'add an IMAP account (the password is read from standard input;',
      '--tls none only for a server on this computer); with --oauth (google,',
      'microsoft, yahoo, aol, or an issuer) sign in in the browser instead: the',
      'address to open is printed ({"authorize": URL} with --json), and the',
      'account is saved when the sign-in comes back (Ctrl+C or 10 minutes: nothing)',
    ],
    flags: {
      oauth: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'imap-host': { type: 'string' },
      'imap-port': { type: 'string' },
      tls: { type: 'string' },
      user: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      'smtp-host': { type: 'string' },
      'smtp-port': { type: 'string' },
      'smtp-tls': { type: 'string' },
    },
  },
  'account signin': {
    usage: ['account signin NAME'],
    summary: ['sign an account that uses --oauth in again (after "Sign in again")'],
    flags: {},
  },
  'account list': {
    usage: ['account list'],
    summary: ['list mail accounts (passwords are never shown)'],
    flags: {},
  },
  'account test': {
    usage: ['account test NAME'],
    summary: ["log in to the account's servers and out again"],
    flags: {},
  },
  'account sync': {
    usage: ['account sync NAME --once'],
    summary: ['fetch new mail, flag changes and removals once, then exit'],
    flags: { once: { type: 'boolean', default: false } },
  },
  'account discover': {
    usage: ['account discover ADDRESS'],
    summary: [
      "find an address's IMAP and SMTP settings (the provider's autoconfig file, SRV",
      'and MX records, the usual host names) and say where each came from; nothing',
      'is stored and nothing logs in',
    ],
    flags: {},
  },
  'identity add': {
    usage: ['identity add ADDRESS [--name NAME] [--signature-file F]'],
    summary: [
      'add one of your addresses (replies are sent from it, reply all',
      'leaves it out), or change its name or signature (a text file)',
    ],
    flags: { name: { type: 'string' }, 'signature-file': { type: 'string' } },
  },
  'identity list': {
    usage: ['identity list'],
    summary: ["list your addresses: each account's own, and those you added"],
    flags: {},
  },
  'identity remove': {
    usage: ['identity remove ADDRESS'],
    summary: ["remove an address you added (an account's own stays)"],
    flags: {},
  },
  'draft new': {
    usage: [
      'draft new --to ADDR… [--cc ADDR…] [--bcc ADDR…] [--subject S] [--body-file F|-] [--from ADDR]',
      '[--attach FILE…]',
    ],
    summary: [
      'write a new draft (--to, --cc, --bcc and --attach may repeat, or list addresses with commas);',
      '--from is one of your addresses (identity list)',
    ],
    flags: {
      to: { type: 'string', multiple: true },
      cc: { type: 'string', multiple: true },
      bcc: { type: 'string', multiple: true },
      subject: { type: 'string' },
      'body-file': { type: 'string' },
      from: { type: 'string' },
      attach: { type: 'string', multiple: true },
    },
  },
  'draft reply': {
    usage: [
      'draft reply MESSAGE_ID [--all] [--body-file F|-]',
      '[--model SERVICE/MODEL [--instructions TEXT]]',
    ],
    summary: [
      'a draft answering a message (its id from search --json), from the one',
      'of your addresses it was sent to; your text goes above the quote; with',
      '--model the model drafts it from the thread, with its citations and the',
      'amounts, dates and times found nowhere in the thread',
    ],
    flags: {
      all: { type: 'boolean', default: false },
      'body-file': { type: 'string' },
      model: { type: 'string' },
      instructions: { type: 'string' },
    },
  },
  'draft forward': {
    usage: ['draft forward MESSAGE_ID --to ADDR… [--body-file F|-]'],
    summary: ['a draft forwarding a message, its headers, text and attachments below your text'],
    flags: { to: { type: 'string', multiple: true }, 'body-file': { type: 'string' } },
  },
  'draft list': { usage: ['draft list'], summary: ['list the drafts, newest first'], flags: {} },
  'draft show': { usage: ['draft show ID'], summary: ['print a draft as it will be sent'], flags: {} },
  'draft send': {
    usage: ['draft send ID'],
    summary: ['send a draft through the outbox: waits out the undo window, then sends it'],
    flags: {},
  },
  'draft discard': { usage: ['draft discard ID'], summary: ['throw a draft away'], flags: {} },
  judge: {
    usage: [
      'judge [SERVICE/MODEL] --questions FILE (--message ID | --query Q | --all) [--model SERVICE/MODEL]',
    ],
    summary: [
      'ask typed questions (a JSON file in the OpenAI Decisions question',
      'shape) about messages; answers are cached per message, question and',
      'model; with --json one line per message; the model named first or',
      'with --model, else the default triage model',
    ],
    flags: {
      model: { type: 'string' },
      questions: { type: 'string' },
      message: { type: 'string', multiple: true },
      query: { type: 'string' },
      all: { type: 'boolean', default: false },
    },
  },
  summarize: {
    usage: ['summarize [SERVICE/MODEL] (--thread ID | --doc PATH…) [--question Q] [--model SERVICE/MODEL]'],
    summary: [
      'a summary of a thread or of documents (.txt, .md, .pdf, .docx), or',
      'an answer to Q, whose citations are checked against the messages or',
      'the document pages before it is printed; the model named first or',
      'with --model, else the default model for summaries',
    ],
    flags: {
      model: { type: 'string' },
      thread: { type: 'string' },
      doc: { type: 'string', multiple: true },
      question: { type: 'string' },
    },
  },
  ask: {
    usage: [
      'ask [SERVICE/MODEL] PROMPT [--conversation ID] [--tools [--approve none|read|all]]',
      '(or --model SERVICE/MODEL, and every word is the prompt)',
    ],
    summary: [
      'ask a model (named first or with --model, else the default chat',
      'model); the answer streams, the turn is stored; with --tools',
      'it may use the mail tools: what --approve does not cover (and',
      'every send or delete) stops the run for your approval',
    ],
    flags: {
      model: { type: 'string' },
      conversation: { type: 'string' },
      tools: { type: 'boolean', default: false },
      approve: { type: 'string', multiple: true },
    },
  },
  resume: {
    usage: ['resume CONVERSATION [--approve CALL…] [--deny CALL…] [--model SERVICE/MODEL]'],
    summary: [
      'answer the calls a --tools run is waiting on, and go on (with the',
      "conversation's model unless --model names another)",
    ],
    flags: {
      approve: { type: 'string', multiple: true },
      deny: { type: 'string', multiple: true },
      model: { type: 'string' },
    },
  },
} as const satisfies Record<string, Spec>;

export type CommandName = keyof typeof specs;
/** What electron/cli/ has a file for: a command, or a family (`service` for `service add`). */
export type Family = FamilyOf<CommandName>;
type FamilyOf<C extends string> = C extends `${infer F} ${string}` ? F : C;

// The values a command body reads: every flag of every table, typed as parseArgs types them. A body reads only
// its own command's flags; the others are absent (undefined) at run time.
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
type AllFlags = typeof globalFlags & UnionToIntersection<(typeof specs)[CommandName]['flags']>;
export type Values = ReturnType<
  typeof parseArgs<{ options: AllFlags; allowPositionals: true; strict: true }>
>['values'];

export type CommandLine =
  /** Print `text` to standard output and exit 0 (a --help). */
  | { kind: 'help'; text: string }
  /** Print `text` to standard error and exit 2 (no command, or a flag or word a command does not take). */
  | { kind: 'refused'; text: string }
  /** Run `family` (`service` for `service add`) with the words after it (`add NAME`) and the flags. */
  | { kind: 'run'; command: CommandName; family: Family; args: string[]; values: Values };

const familyOf = (command: CommandName) => (command.split(' ')[0] ?? command) as Family;
const commandsOf = (family: string) =>
  (Object.keys(specs) as CommandName[]).filter((c) => familyOf(c) === family);

/**
 * Reads the command line: the global flags, then the command (and a family's subcommand), then only the flags
 * that command's table names. Whatever does not fit is refused with one sentence naming it, before anything
 * runs. `dataDir` is the default data folder, for the help.
 */
export function readCommandLine(argv: readonly string[], dataDir: string): CommandLine {
  // The first word that is not a global flag or its value is the command.
  const { tokens } = parseArgs({
    args: [...argv],
    options: globalFlags,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const first = tokens.find((t) => t.kind === 'positional' || t.kind === 'option-terminator');
  const end = first?.index ?? argv.length;
  const before = tokens.filter((t) => t.index < end);
  const problem = flagProblem(before, globalFlags, 'skimmer', ' before a command');
  if (problem) return { kind: 'refused', text: problem };
  const family = first?.kind === 'positional' ? first.value : undefined;
  const help = before.some((t) => t.kind === 'option' && t.name === 'help');
  if (family === undefined) return { kind: help ? 'help' : 'refused', text: fullHelp(dataDir) };

  const members = commandsOf(family);
  if (members.length === 0) {
    return { kind: 'refused', text: `Unknown command "${family}". Run \`skimmer --help\` for the list.` };
  }
  let command = members.find((c) => c === family);
  let words = 1;
  if (!command) {
    const sub = argv[end + 1];
    command = members.find((c) => c === `${family} ${sub}`);
    words = 2;
    if (!command) {
      const asked = help || argv.slice(end + 1).some((a) => a === '--help' || a === '-h');
      if (asked) return { kind: 'help', text: familyHelp(members, dataDir) };
      return { kind: 'refused', text: usageSentence(members) };
    }
  }

  // The command's own flags and the global ones, anywhere after the command words; the words themselves are
  // taken out so that a family's positionals start after its subcommand.
  const flags = { ...globalFlags, ...specs[command].flags };
  const rest = [...argv.slice(0, end), ...argv.slice(end + words)];
  const loose = parseArgs({
    args: rest,
    options: flags,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const wrong = flagProblem(loose.tokens, flags, `skimmer ${command}`, '');
  if (wrong) return { kind: 'refused', text: wrong };
  let parsed: ReturnType<typeof parseArgs<{ options: typeof flags; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: rest, options: flags, strict: true, allowPositionals: true });
  } catch (e) {
    // What the checks above did not name (a value that looks like a flag, say): parseArgs' own first line.
    const line = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    return { kind: 'refused', text: `skimmer ${command}: ${line}` };
  }
  if (parsed.values.help) return { kind: 'help', text: commandHelp(command, dataDir) };
  return {
    kind: 'run',
    command,
    family: familyOf(command),
    args: [...argv.slice(end + 1, end + words), ...parsed.positionals],
    values: parsed.values as Values,
  };
}

type Token = ReturnType<typeof parseArgs<{ tokens: true; strict: false }>>['tokens'][number];

// The first flag that `flags` does not take, or takes otherwise (a value missing, or given to a switch).
function flagProblem(
  tokens: readonly Token[],
  flags: ParseArgsOptionsConfig,
  who: string,
  where: string,
): string | null {
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const flag = Object.hasOwn(flags, t.name) ? flags[t.name] : undefined;
    if (!flag) return `${who} does not take ${t.rawName}${where}.`;
    if (flag.type === 'string' && t.value === undefined) return `${who}: ${t.rawName} needs a value.`;
    // `--limit --documents`: parseArgs would take the next flag as the value; its strict mode refuses that.
    // A lone `-` is standard input (`--body-file -`), never a flag.
    if (flag.type === 'string' && !t.inlineValue && t.value?.startsWith('-') && t.value !== '-') {
      return `${who}: ${t.rawName} needs a value (one that starts with "-" is written ${t.rawName}=VALUE).`;
    }
    if (flag.type === 'boolean' && t.value !== undefined) return `${who}: ${t.rawName} takes no value.`;
  }
  return null;
}

/** "Use `skimmer judge SERVICE/MODEL …`." — the usage of a command, or of a family's commands, as a sentence. */
export function usageSentence(commands: CommandName | readonly CommandName[]): string {
  const list = (typeof commands === 'string' ? [commands] : commands).map((c) => specs[c].usage.join(' '));
  const quoted = list.map((u, i) => (i === 0 ? `\`skimmer ${u}\`` : `\`${u}\``));
  const joined = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted[0];
  return `Use ${joined}.`;
}

/** `usageSentence` for every command of a family (`service`, `account`). */
export const familyUsageSentence = (family: string) => usageSentence(commandsOf(family));

// Two columns: the usage, then the summary from column 31 (on the next line when the usage is too wide).
function helpEntry(command: CommandName): string[] {
  const { usage, summary } = specs[command];
  const [head = command, ...more] = usage;
  const column = ' '.repeat(31);
  if (more.length === 0 && head.length < 29) {
    const [line, ...lines] = summary;
    return [`  ${head.padEnd(29)}${line ?? ''}`, ...lines.map((l) => column + l)];
  }
  return [`  ${head}`, ...more.map((l) => `          ${l}`), ...summary.map((l) => column + l)];
}

/** `skimmer --help`: every command, then the global flags. */
function fullHelp(dataDir: string): string {
  const entries = (Object.keys(specs) as CommandName[]).flatMap(helpEntry);
  return [
    'Usage: skimmer [--data DIR] <command> [options]',
    '',
    'Commands:',
    ...entries,
    '',
    'Options:',
    ...globalHelp(dataDir),
  ].join('\n');
}

// `skimmer service --help`: the family's commands.
function familyHelp(members: readonly CommandName[], dataDir: string): string {
  return ['Usage:', ...members.flatMap(helpEntry), '', 'Options:', ...globalHelp(dataDir)].join('\n');
}

// `skimmer judge --help`: its usage and what it does.
function commandHelp(command: CommandName, dataDir: string): string {
  const [head, ...more] = specs[command].usage;
  return [
    `Usage: skimmer [--data DIR] ${head}`,
    ...more.map((l) => `          ${l}`),
    '',
    ...specs[command].summary.map((l) => `  ${l}`),
    '',
    'Options:',
    ...globalHelp(dataDir),
  ].join('\n');
}
