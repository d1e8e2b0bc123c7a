// The provider-neutral request every provider builds its body from (DESIGN §6). Tools carry a JSON
// schema (generated from the tool's zod schema by the engine); the system prompt is not a message.
import type { Turn } from './messages.ts';

export type ToolSpec = { name: string; description: string; inputSchema: Record<string, unknown> };

export type ModelRequest = {
  model: string;
  system?: string;
  history: readonly Turn[];
  tools?: readonly ToolSpec[];
  maxOutputTokens?: number;
};

// The text of a turn's text blocks, joined; tool blocks are carried separately by each provider.
export function turnText(turn: Turn): string {
  return turn.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n\n');
}
