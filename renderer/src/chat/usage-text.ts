// Token usage under an answer, as the service reported it: "25 in · 12 out tokens".
export function usageText(usage: { inputTokens: number; outputTokens: number }): string {
  return `${usage.inputTokens.toLocaleString()} in · ${usage.outputTokens.toLocaleString()} out tokens`;
}
