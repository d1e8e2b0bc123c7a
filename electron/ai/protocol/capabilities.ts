// What a model can do, decided before anything is sent (DESIGN §6 "Capabilities"): whether it calls
// tools, whether it may call several at once, and how much input it takes. Pure: a curated table and a
// preflight check on it; the engine sizes history with `maxInputTokens` (see budget.ts).

type ModelCapabilities = { tools: boolean; parallelTools: boolean; maxInputTokens: number };

export type CapabilityView = {
  known: boolean;
  // The table entry the id matched, e.g. 'qwen3' for 'qwen3:8b'; null when unknown.
  family: string | null;
  tools: boolean | 'unknown';
  parallelTools: boolean;
  maxInputTokens: number | null;
};

export type Preflight = { ok: true } | { ok: false; code: 'unsupported_capability'; message: string };

export type Family = ModelCapabilities & { family: string; ids: readonly string[] };

// Curated by hand and deliberately conservative: where sizes of one family differ (gemma3:1b has 32K,
// the larger ones 128K) or a provider offers more behind a flag (Claude's 1M beta), the smaller number is
// used; `maxInputTokens` is the model's whole context window, since budget.ts reserves output separately.
// For local models it is what the model supports, not what the server was started with: Ollama, LM
// Studio and llama.cpp run with a smaller configured context unless told otherwise, which no table can
// know. Parallel calls are only claimed where the provider documents them; local servers' parsers differ
// in how they stream several calls (reference/wire-formats.md §1.7), so they are not counted on.
// Tool support for local models follows Ollama's library, whose server refuses tools for models without
// them ("gemma3:4b does not support tools", ollama/ollama#9680; "llama3 does not support tools", #5793).
//
// `ids` are normalized spellings (see `familyKey`): the Ollama name, plus the Hugging Face / LM Studio
// spelling where it differs. An id matches when it is a spelling, or starts with one followed by '-',
// '_' or '@' (a size, date or variant: 'gpt-4o-mini', 'claude-3-5-haiku@20241022'); the longest spelling
// wins, so 'llama3.2-vision' is not 'llama3.2'. A '.' is not a separator: 'llama3.2' is not a 'llama3'.
export const families: readonly Family[] = [
  // OpenAI (platform.openai.com model pages). GPT-5: a 400K window of which up to 128K is output.
  { family: 'gpt-5', ids: ['gpt-5'], tools: true, parallelTools: true, maxInputTokens: 272_000 },
  { family: 'gpt-4.1', ids: ['gpt-4.1'], tools: true, parallelTools: true, maxInputTokens: 1_047_576 },
  { family: 'gpt-4o', ids: ['gpt-4o'], tools: true, parallelTools: true, maxInputTokens: 128_000 },
  { family: 'o4-mini', ids: ['o4-mini'], tools: true, parallelTools: true, maxInputTokens: 200_000 },
  { family: 'o3', ids: ['o3'], tools: true, parallelTools: true, maxInputTokens: 200_000 },
  { family: 'o1', ids: ['o1'], tools: true, parallelTools: false, maxInputTokens: 200_000 },
  { family: 'o1-mini', ids: ['o1-mini'], tools: false, parallelTools: false, maxInputTokens: 128_000 },
  { family: 'o1-preview', ids: ['o1-preview'], tools: false, parallelTools: false, maxInputTokens: 128_000 },
  { family: 'gpt-oss', ids: ['gpt-oss'], tools: true, parallelTools: false, maxInputTokens: 131_072 },

  // Anthropic (docs.anthropic.com "Models overview"): 200K and parallel tool use throughout. The dotted
  // spellings are how OpenRouter names them.
  claude('claude-opus-4', 'claude-opus-4.1'),
  claude('claude-sonnet-4'),
  claude('claude-sonnet-4-5', 'claude-sonnet-4.5'),
  claude('claude-haiku-4-5', 'claude-haiku-4.5'),
  claude('claude-3-7-sonnet'),
  claude('claude-3-5-sonnet'),
  claude('claude-3-5-haiku'),
  claude('claude-3-haiku'),

  // Local models, by Ollama name and Hugging Face / LM Studio spelling.
  local('llama3', 8_192, false, ['llama-3', 'meta-llama-3']),
  local('llama3.1', 128_000, true, ['llama-3.1', 'meta-llama-3.1']),
  local('llama3.2', 128_000, true, ['llama-3.2', 'meta-llama-3.2']),
  local('llama3.2-vision', 128_000, false, ['llama-3.2-11b-vision', 'llama-3.2-90b-vision']),
  local('llama3.3', 128_000, true, ['llama-3.3', 'meta-llama-3.3']),
  local('qwen2.5', 32_768, true),
  local('qwen2.5vl', 32_768, false, ['qwen2.5-vl']),
  local('qwen3', 40_960, true),
  local('mistral', 32_768, true),
  local('gemma2', 8_192, false, ['gemma-2']),
  local('gemma3', 32_768, false, ['gemma-3']),
  local('phi3', 4_096, false, ['phi-3']),
  local('phi4', 16_384, false, ['phi-4']),
  local('phi4-mini', 128_000, true, ['phi-4-mini']),
];

function claude(family: string, ...more: string[]): Family {
  return { family, ids: [family, ...more], tools: true, parallelTools: true, maxInputTokens: 200_000 };
}

function local(family: string, maxInputTokens: number, tools: boolean, more: string[] = []): Family {
  return { family, ids: [family, ...more], tools, parallelTools: false, maxInputTokens };
}

// The part of an id that names the model: lower case, without a fine-tune prefix ('ft:gpt-4o-mini-…'),
// an organisation or route ('meta-llama/…', 'openai/…', 'hf.co/org/…') or an Ollama tag (':8b').
export function familyKey(modelId: string): string {
  let id = modelId.trim().toLowerCase();
  if (id.startsWith('ft:')) id = id.slice(3);
  id = id.slice(id.lastIndexOf('/') + 1);
  const tag = id.indexOf(':');
  return tag === -1 ? id : id.slice(0, tag);
}

function knownFamily(modelId: string): Family | null {
  const key = familyKey(modelId);
  let best: { family: Family; length: number } | null = null;
  for (const family of families) {
    for (const id of family.ids) {
      const fits = key === id || (key.startsWith(id) && '-_@'.includes(key.charAt(id.length)));
      if (fits && (best === null || id.length > best.length)) best = { family, length: id.length };
    }
  }
  return best?.family ?? null;
}

// The table's answer, adjusted by the service's mark. A mark wins even over a table entry that says no:
// the table matches by family prefix, so a community build such as 'gemma3-tools' is taken for gemma3,
// while a mark is someone's word about this exact model. If the mark is wrong, the provider refuses
// the request with an error, which is no worse than our refusal.
export function capabilitiesFor(modelId: string, opts: { markedToolCapable?: boolean } = {}): CapabilityView {
  const marked = opts.markedToolCapable === true;
  const found = knownFamily(modelId);
  if (found === null) {
    return {
      known: false,
      family: null,
      tools: marked ? true : 'unknown',
      parallelTools: false,
      maxInputTokens: null,
    };
  }
  return {
    known: true,
    family: found.family,
    tools: found.tools || marked,
    parallelTools: found.parallelTools,
    maxInputTokens: found.maxInputTokens,
  };
}

export const preflightMessages = {
  noTools: 'This model cannot call tools, which this needs; choose a model that can.',
  unknownTools:
    'Skimmer does not know whether this model can call tools; mark it as tool-capable in the service settings to use it for this.',
} as const;

// Plain chat goes to any model. Tools go only to a model that is known, or marked, to call them.
//
// An unknown, unmarked model is refused rather than tried, because a model that cannot call tools does
// not reliably fail: Ollama answers 400, but other servers pass the tools along and the model writes
// something shaped like a call into its text (lmstudio-ai/lmstudio-bug-tracker#2115), or just answers
// without searching, which would look like a grounded answer and is not one. The refusal says how to
// proceed (mark the model), and nothing is sent before the user decides.
export function preflight(
  modelId: string,
  opts: { usesTools: boolean; markedToolCapable?: boolean },
): Preflight {
  if (!opts.usesTools) return { ok: true };
  const caps = capabilitiesFor(modelId, opts);
  if (caps.tools === true) return { ok: true };
  const message = caps.tools === false ? preflightMessages.noTools : preflightMessages.unknownTools;
  return { ok: false, code: 'unsupported_capability', message };
}
