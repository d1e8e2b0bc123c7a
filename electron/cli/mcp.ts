// `skimmer mcp`: the mailbox for an outside agent, over MCP on standard input and output (DESIGN §13,
// "Outside agents"), until the client closes the pipe or the process is stopped. Standard output carries
// JSON-RPC only; the server itself is electron/mcp/.
import { type ApproveIn, createMcpServer, defaultApprovalTimeoutMs } from '../mcp/mcp-server.ts';
import { StdioLines } from '../mcp/stdio-lines.ts';
import type { Command } from './command.ts';
import { UsageError } from './failures.ts';

export const mcpCommand: Command = async (app, args, values, _io, signal) => {
  if (args.length > 0) throw new UsageError('skimmer mcp takes no words, only its flags.');
  const seconds = values['approval-timeout'] === undefined ? null : Number(values['approval-timeout']);
  if (seconds !== null && !(Number.isFinite(seconds) && seconds > 0 && seconds <= 3600)) {
    throw new UsageError('--approval-timeout must be a number of seconds, more than 0 and at most 3600.');
  }
  const approveIn = values['approve-in'] ?? 'app';
  if (approveIn !== 'app' && approveIn !== 'client') {
    throw new UsageError(
      '--approve-in takes app (sends and deletes are approved in the Skimmer app) or client (in the MCP client too).',
    );
  }
  const mcp = createMcpServer(app, {
    version: app.version,
    readOnly: values['read-only'] === true,
    approvalTimeoutMs: seconds === null ? defaultApprovalTimeoutMs : seconds * 1000,
    approveIn: approveIn satisfies ApproveIn,
  });
  const transport = new StdioLines();
  mcp.server.onerror = (e) => app.log.error('mcp', e);
  await new Promise<void>((resolve) => {
    mcp.server.onclose = () => resolve();
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    signal?.addEventListener('abort', () => resolve(), { once: true });
    void mcp.server.connect(transport);
  });
  mcp.close();
  await mcp.server.close();
  return 0;
};
