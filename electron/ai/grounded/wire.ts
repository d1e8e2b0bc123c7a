// The non-streaming request and the answer text of a grounded answer, per service kind (DESIGN §10). For the
// OpenAI kind only `model` and `messages` are sent, so any OpenAI-compatible server answers; Anthropic needs
// `max_tokens` (wire-formats §3.2) and the Responses API takes `instructions` and `input` (§2.1). The
// answer is read from where each API puts a non-streamed message's text.
import type { ServiceKind } from '../../../shared/contract/index.ts';
import { classifyAnthropicError } from '../providers/anthropic.ts';
import { classifyChatError } from '../providers/openai-chat.ts';

export type GroundedWire = {
  body: (model: string, system: string, user: string) => Record<string, unknown>;
  text: (body: unknown) => string | null;
  classify: typeof classifyChatError;
};

const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

// Room for a 16 KiB answer in any script (DESIGN §10), as Anthropic requires a cap.
const anthropicMaxTokens = 8192;

export const groundedWire: Partial<Record<ServiceKind, GroundedWire>> = {
  openai: {
    body: (model, system, user) => ({
      model,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    }),
    text: (body) => {
      const content = obj(obj(arr(obj(body)?.choices)[0])?.message)?.content;
      return typeof content === 'string' ? content : null;
    },
    classify: classifyChatError,
  },
  anthropic: {
    body: (model, system, user) => ({
      model,
      max_tokens: anthropicMaxTokens,
      system,
      messages: [{ role: 'user', content: user }],
    }),
    text: (body) => {
      const parts = arr(obj(body)?.content).flatMap((p) => {
        const o = obj(p);
        return o?.type === 'text' && typeof o.text === 'string' ? [o.text] : [];
      });
      return parts.length > 0 ? parts.join('') : null;
    },
    classify: classifyAnthropicError,
  },
  'openai-responses': {
    body: (model, system, user) => ({ model, instructions: system, input: user }),
    text: (body) => {
      const parts = arr(obj(body)?.output).flatMap((item) =>
        arr(obj(item)?.content).flatMap((c) => {
          const o = obj(c);
          return o?.type === 'output_text' && typeof o.text === 'string' ? [o.text] : [];
        }),
      );
      return parts.length > 0 ? parts.join('') : null;
    },
    classify: classifyChatError,
  },
};
