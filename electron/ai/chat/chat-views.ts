// What the chat pane is shown of stored turns, tool results and waiting calls (shared/contract/index.ts ChatBlock,
// ToolResultView, ApprovalCall). Pure: the renderer never sees raw stored turns, and mail inside them always
// arrives split out as untrusted parts with their injection flags (DESIGN §8, §12).
import type { ApprovalCall, ChatBlock, ToolResultView } from '../../../shared/contract/index.ts';
import type { Turn } from '../protocol/messages.ts';
import { isUntrustedBlock, untrustedParts } from '../safety/untrusted.ts';
import { type AnyTool, type CallPreview, callEffect } from '../tools/tool.ts';
import type { PendingCall } from './engine.ts';

/** A tool's own text is shown cut to this; the full result stays stored. */
const maxResultText = 4000;

const cut = (text: string, max: number) => {
  const points = Array.from(text);
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : text;
};

export function toolResultView(r: {
  id: string;
  name: string;
  output: string;
  isError: boolean;
}): ToolResultView {
  const { parts, rest } = untrustedParts(r.output);
  return { id: r.id, name: r.name, isError: r.isError, text: cut(rest, maxResultText), untrusted: parts };
}

export function chatBlocks(turn: Turn): ChatBlock[] {
  return turn.content.map((b): ChatBlock => {
    if (b.type === 'tool_call') return { kind: 'tool_call', id: b.id, name: b.name, args: b.input };
    if (b.type === 'tool_result') {
      return {
        kind: 'tool_result',
        ...toolResultView({ id: b.callId, name: b.name, output: b.output, isError: b.isError }),
      };
    }
    // Quoted mail sits in the user's turn as untrusted blocks; it is not the user's words.
    if (turn.role === 'user' && isUntrustedBlock(b.text)) {
      return { kind: 'quote', parts: untrustedParts(b.text).parts };
    }
    return { kind: 'text', text: b.text };
  });
}

/** The words of a turn: its text blocks, without quoted mail. */
export function chatText(blocks: readonly ChatBlock[]): string {
  return blocks.flatMap((b) => (b.kind === 'text' ? [b.text] : [])).join('\n\n');
}

export function approvalView(call: PendingCall, tool: AnyTool | undefined): ApprovalCall {
  let preview: CallPreview = { title: call.name, lines: [] };
  try {
    if (tool?.preview) preview = tool.preview(call.args);
  } catch {
    // A preview that cannot be made still leaves the raw arguments on the card.
    preview = { title: call.name, lines: ['Skimmer could not describe this call; see its arguments.'] };
  }
  const effect = tool ? callEffect(tool, call.args) : 'write';
  return {
    id: call.id,
    argsHash: call.argsHash,
    name: call.name,
    effect,
    args: call.args,
    preview,
    provenance: call.provenance,
    // DESIGN §7: only writes can be allowed in advance; send and delete always ask.
    grantable: effect === 'write',
    held: call.held,
  };
}
