// The MCP stdio transport (MCP spec 2025-11-25, "Transports: stdio"): one JSON-RPC message per line on
// standard input and output, nothing else on standard output. The SDK's own StdioServerTransport drops a line
// that is not JSON without answering, and closes for good on a line longer than its buffer; an agent's bad
// line must not take the mailbox server down, and its sender should hear why. So this one answers as
// JSON-RPC 2.0 §5.1 says: -32700 for a line that is not JSON, -32600 for JSON that is not a message, or a
// line longer than `maxLineBytes` (its id, when the line shows one at either end, so the caller's request
// fails at once instead of timing out), and reads on.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** The largest request the tools can take is well under this (a 100,000-character body, 50 recipients). */
const maxLineBytes = 1024 * 1024;
/** How much of an oversize line is kept to find its id: its start and its end. */
const edge = 512;

type Id = string | number | null;
type ErrorReply = { jsonrpc: '2.0'; id: Id; error: { code: number; message: string } };

// `"id":7` or `"id":"abc"` right after `{` or right before the final `}`: where encoders put it.
const idPatterns = [
  /^\s*\{\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/,
  /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/,
];
function idIn(text: string): Id {
  for (const pattern of idPatterns) {
    const found = pattern.exec(text)?.[1];
    if (found !== undefined) return JSON.parse(found) as string | number;
  }
  return null;
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
  // Set while the rest of an oversize line is skipped: what was kept of its start.
  private skipping: string | null = null;
  private tail = '';
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
      this.tail = (this.tail + bytes.subarray(-edge).toString('utf8')).slice(-edge);
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
    if (this.size > maxLineBytes) {
      const kept = Buffer.concat(this.parts);
      this.skipping = kept.subarray(0, edge).toString('utf8');
      this.tail = kept.subarray(-edge).toString('utf8');
      this.parts = [];
      this.size = 0;
    }
  }

  private endLine(): void {
    if (this.skipping !== null) {
      const id = idIn(this.skipping) ?? idIn(this.tail);
      this.skipping = null;
      this.tail = '';
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
