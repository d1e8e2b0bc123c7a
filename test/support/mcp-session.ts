// An MCP client session with the real `skimmer mcp` process, through the SDK's own client over stdio, with every
// JSON-RPC message both ways kept (the canary test reads them) and the server's standard error.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { projectRoot } from '../../electron/app.ts';

const bin = join(projectRoot, 'bin', 'skimmer.mjs');

export type McpSession = {
  client: Client;
  /** Every message sent and received, as JSON text. */
  wire: string[];
  stderr: () => string;
  close(): Promise<void>;
};

export async function startMcp(
  dataDir: string,
  options: {
    flags?: string[];
    name?: string;
    /** Declares elicitation and answers each request with this; the message it showed is passed. */
    elicit?: (message: string) => ElicitResult['action'];
  } = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--data', dataDir, 'mcp', ...(options.flags ?? [])],
    env: { HOME: process.env.HOME ?? '/tmp', PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  const wire: string[] = [];
  let errors = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  transport.onmessage = (message) => {
    wire.push(JSON.stringify(message));
  };
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    wire.push(JSON.stringify(message));
    return send(message);
  };
  const client = new Client(
    { name: options.name ?? 'test-agent', version: '1.0' },
    { capabilities: options.elicit ? { elicitation: {} } : {} },
  );
  const elicit = options.elicit;
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const action = elicit(request.params.message);
      return action === 'accept' ? { action, content: {} } : { action };
    });
  }
  await client.connect(transport);
  return { client, wire, stderr: () => errors, close: () => client.close() };
}
