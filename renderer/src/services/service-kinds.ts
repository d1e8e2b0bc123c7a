// How each service kind is named in the settings screen, and an example base URL for its field. The
// examples are placeholders only: there is no default service or endpoint (DESIGN §5).
import type { ServiceKind } from '../../../shared/contract/index.ts';

type KindText = { label: string; short: string; placeholder: string };

export const kindText: Record<ServiceKind, KindText> = {
  openai: {
    label: 'OpenAI Chat Completions / compatible (Ollama, LM Studio, llama.cpp, vLLM)',
    short: 'OpenAI Chat Completions',
    placeholder: 'http://localhost:11434/v1 or https://api.openai.com/v1',
  },
  'openai-responses': {
    label: 'OpenAI Responses',
    short: 'OpenAI Responses',
    placeholder: 'https://api.openai.com/v1',
  },
  anthropic: {
    label: 'Anthropic Messages',
    short: 'Anthropic Messages',
    placeholder: 'https://api.anthropic.com/v1',
  },
  decisions: {
    label: 'OpenAI Decisions (judge questions)',
    short: 'OpenAI Decisions',
    placeholder: 'https://api.openai.com/v1',
  },
  systemone: {
    label: 'TypeSafe System One (judge questions)',
    short: 'System One',
    placeholder: 'https://api.typesafe.ai/v1',
  },
};

export const serviceKinds = Object.keys(kindText) as ServiceKind[];

export function isServiceKind(value: string): value is ServiceKind {
  return Object.hasOwn(kindText, value);
}
