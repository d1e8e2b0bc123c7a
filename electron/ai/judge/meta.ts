// The served model and the token counts of a decision answer, read leniently: a missing or odd usage is not a
// failed answer. OpenAI Decisions and System One put them in the same place (wire-formats §4.3, §5.3); the
// model may be the resolved version of an alias (`jev-latest` → `jev-1.13.0`).
import { z } from 'zod';

const Meta = z.object({
  model: z.string().optional().catch(undefined),
  usage: z
    .object({
      input_tokens: z.number().int().nonnegative(),
      // 0 in every observed Decisions answer: nothing is generated (§4.3).
      output_tokens: z.number().int().nonnegative().optional(),
    })
    .optional()
    .catch(undefined),
});

export function readMeta(body: unknown): {
  model: string | null;
  usage: { inputTokens: number; outputTokens: number } | null;
} {
  const parsed = Meta.safeParse(body);
  const meta = parsed.success ? parsed.data : {};
  return {
    model: meta.model ?? null,
    usage: meta.usage
      ? { inputTokens: meta.usage.input_tokens, outputTokens: meta.usage.output_tokens ?? 0 }
      : null,
  };
}
