// The MCP stdio transport (MCP spec 2025-11-25, "Transports: stdio"): one JSON-RPC message per line on
// standard input and output, nothing else on standard output. The SDK's own StdioServerTransport drops a line
// that is not JSON without answering, and closes for good on a line longer than its buffer; an agent's bad
// line must not take the mailbox server down, and its sender should hear why. So this one answers as
// JSON-RPC 2.0 §5.1 says: -32700 for a line that is not JSON, -32600 for JSON that is not a message, or a
// line longer than `maxLineBytes` (with the request's id, so the caller's request fails at once instead of
// timing out), and reads on. An over-long line is never held or parsed: a scan in constant memory follows
// it byte by byte to its top-level "id", wherever that key stands among the others.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** The largest request the tools can take is well under this (a 100,000-character body, 50 recipients). */
const maxLineBytes = 1024 * 1024;
/** A key longer than this is not `id`, even written with escapes (`"\u0069\u0064"` is 14 bytes). */
const maxKeyBytes = 32;
/** An id longer than this is not kept; the error is answered with `id: null`. */
const maxIdBytes = 1024;

type Id = string | number | null;
type ErrorReply = { jsonrpc: '2.0'; id: Id; error: { code: number; message: string } };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
const isNumberByte = (b: number) =>
  (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45;

/**
 * The top-level `"id"` of a JSON text read a piece at a time, as `JSON.parse` would read it (the last one, if
 * the key is given twice): the scan knows strings and their escapes and how deep it is, so an `"id"` inside
 * `params` or inside a string is not taken for it, and keeps no more than one key or one id. Bytes, not
 * characters: every byte JSON's structure is made of is ASCII, and a multi-byte character never holds one,
 * so a piece may end anywhere.
 */
class TopLevelId {
  private started = false;
  private done = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Where the scan stands among the top-level object's members. */
  private place: 'key' | 'colon' | 'value' | 'after' = 'key';
  private valueIsId = false;
  /** The bytes of the top-level key, or of the id's value, being read; null when neither. */
  private kept: number[] | null = null;
  private keeping: 'key' | 'string' | 'number' = 'key';
  private tooLong = false;
  private found: Id = null;

  /** The id, once the whole line has been fed. */
  end(): Id {
    if (this.kept !== null && this.keeping === 'number') this.endValue();
    return this.found;
  }

  feed(bytes: Buffer): void {
    // Where the next quote and backslash of this piece are, at or after i (-1: none left). Kept from one look
    // to the next, so a string of many escapes is not searched again from each one.
    let quote = -2;
    let backslash = -2;
    for (let i = 0; i < bytes.length && !this.done; i++) {
      if (this.inString && this.kept === null && !this.escaped) {
        // A long string nobody keeps (a body, a query): jump to where it may end.
        if (quote !== -1 && quote < i) quote = bytes.indexOf(QUOTE, i);
        if (backslash !== -1 && backslash < i) backslash = bytes.indexOf(BACKSLASH, i);
        const next = quote === -1 ? backslash : backslash === -1 ? quote : Math.min(quote, backslash);
        if (next === -1) return;
        i = next;
      }
      this.byte(bytes[i] as number);
    }
  }

  private keep(b: number): void {
    if (this.kept === null) return;
    if (this.kept.length >= (this.keeping === 'key' ? maxKeyBytes : maxIdBytes)) this.tooLong = true;
    else this.kept.push(b);
  }

  private startKeeping(what: 'key' | 'string' | 'number', b: number): void {
    this.kept = [b];
    this.keeping = what;
    this.tooLong = false;
  }

  private byte(b: number): void {
    if (this.inString) {
      this.keep(b);
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.kept !== null && this.keeping === 'key') this.endKey();
        else if (this.kept !== null) this.endValue();
      }
      return;
    }
    if (this.kept !== null && this.keeping === 'number') {
      if (isNumberByte(b)) {
        this.keep(b);
        return;
      }
      this.endValue();
    }
    if (isSpace(b)) return;
    if (!this.started) {
      this.started = true;
      // Not an object: no request, no id.
      if (b !== 0x7b) this.done = true;
      this.depth = 1;
      return;
    }
    const value = this.depth === 1 && this.place === 'value';
    // The id's value starts: whatever it is replaces an earlier one, as in JSON.parse; only a string or a
    // number is kept.
    if (value && this.valueIsId) this.found = null;
    if (b === QUOTE) {
      this.inString = true;
      if (this.depth === 1 && this.place === 'key') this.startKeeping('key', b);
      else if (value && this.valueIsId) this.startKeeping('string', b);
      else if (value) this.place = 'after';
      return;
    }
    if (b === 0x7b || b === 0x5b) {
      if (value) this.place = 'after';
      this.depth += 1;
    } else if (b === 0x7d || b === 0x5d) {
      this.depth -= 1;
      if (this.depth <= 0) this.done = true;
    } else if (this.depth === 1) {
      if (b === 0x3a && this.place === 'colon') this.place = 'value';
      else if (b === 0x2c) this.place = 'key';
      else if (value) {
        this.place = 'after';
        if (this.valueIsId && (b === 0x2d || (b >= 0x30 && b <= 0x39))) this.startKeeping('number', b);
      }
    }
  }

  private endKey(): void {
    this.valueIsId = !this.tooLong && parsed(this.kept) === 'id';
    this.kept = null;
    this.place = 'colon';
  }

  private endValue(): void {
    const value = this.tooLong ? null : parsed(this.kept);
    this.found =
      typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : null;
    this.kept = null;
    this.place = 'after';
  }
}

function parsed(bytes: number[] | null): unknown {
  if (bytes === null) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

function idOf(value: unknown): Id {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Reads messages from `input` a line at a time and writes each reply as one line to `output`. */
export class StdioLines implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  // Set while the rest of an oversize line is skipped: the scan for its id, which has seen the whole line.
  private skipping: TopLevelId | null = null;
  private closed = false;
  private readonly input: NodeJS.ReadableStream;
  private readonly output: NodeJS.WritableStream;

  constructor(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout) {
    this.input = input;
    this.output = output;
  }

  private readonly onData = (chunk: Buffer) => this.take(chunk);
  private readonly onEnd = () => void this.close();

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
  }

  async send(message: JSONRPCMessage | ErrorReply): Promise<void> {
    if (this.closed) return;
    const line = `${JSON.stringify(message)}\n`;
    await new Promise<void>((resolve) => {
      if (this.output.write(line)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    // Nothing else reads standard input: let the process end.
    this.input.pause();
    this.onclose?.();
  }

  private take(chunk: Buffer): void {
    let rest = chunk;
    for (let end = rest.indexOf(0x0a); end !== -1; end = rest.indexOf(0x0a)) {
      this.append(rest.subarray(0, end));
      this.endLine();
      rest = rest.subarray(end + 1);
    }
    if (rest.length > 0) this.append(rest);
  }

  private append(bytes: Buffer): void {
    if (this.skipping !== null) {
      this.skipping.feed(bytes);
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
    if (this.size > maxLineBytes) {
      // SECURITY: an over-long line is not kept, nor parsed: only scanned, in constant memory, for its id.
      this.skipping = new TopLevelId();
      for (const part of this.parts) this.skipping.feed(part);
      this.parts = [];
      this.size = 0;
    }
  }

  private endLine(): void {
    if (this.skipping !== null) {
      const id = this.skipping.end();
      this.skipping = null;
      this.reply(
        id,
        -32600,
        `The request is larger than ${maxLineBytes / 1024 / 1024} MiB, so Skimmer did not read it.`,
      );
      return;
    }
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reply(null, -32700, 'Parse error: the line is not JSON.');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      this.reply(idOf(value), -32600, 'Invalid request: the line is not a JSON-RPC 2.0 message.');
      return;
    }
    this.onmessage?.(message.data);
  }

  private reply(id: Id, code: number, message: string): void {
    this.send({ jsonrpc: '2.0', id, error: { code, message } }).catch((e: unknown) =>
      this.onerror?.(e instanceof Error ? e : new Error(String(e))),
    );
  }
}
