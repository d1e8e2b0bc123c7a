// The mail tools as an MCP client lists them (MCP spec 2025-11-25, "Tools"): exactly the assistant's tools,
// with their names, descriptions and input schemas as the model services get them (tools/tool.ts `toolSpec`),
// and the annotations a client uses to decide how carefully to treat a call. The annotations are hints for
// the client; Skimmer's own gates decide what runs (mcp-server.ts).
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool, ToolEffect } from '../ai/tools/tool.ts';
import { toolSpec } from '../ai/tools/tool.ts';

type Annotations = NonNullable<McpTool['annotations']>;

const byEffect: Record<ToolEffect, Annotations> = {
  read: { readOnlyHint: true, openWorldHint: false },
  // Changes to stored mail: undoable, and kept inside the mailbox.
  write: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // A message leaves the machine: to the outside world, and gone for good once the undo window passed.
  send: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
};

// Doing these twice with the same arguments changes nothing more (a draft made twice is two drafts).
const idempotent = new Set(['mark_read', 'label_messages', 'archive', 'move_to_folder']);

const titles: Record<string, string> = {
  search_mail: 'Search mail',
  read_thread: 'Read a thread',
  list_labels: 'List labels',
  label_messages: 'Label messages',
  archive: 'Archive messages',
  move_to_folder: 'Move messages to a folder',
  mark_read: 'Mark messages read or unread',
  create_draft: 'Save a draft',
  trash: 'Move messages to the Trash',
  send_mail: 'Send a message',
};

export function mcpTool(tool: AnyTool): McpTool {
  const spec = toolSpec(tool);
  const annotations: Annotations = {
    title: titles[tool.name] ?? tool.name,
    ...byEffect[tool.effect],
    ...(tool.effect === 'write' ? { idempotentHint: idempotent.has(tool.name) } : {}),
  };
  return {
    name: spec.name,
    title: annotations.title,
    description: spec.description,
    inputSchema: spec.inputSchema as McpTool['inputSchema'],
    annotations,
  };
}
