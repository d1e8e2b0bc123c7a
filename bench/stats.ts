// Summaries the benchmarks print: percentiles by nearest rank over a sorted copy.
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function summary(values: readonly number[]): {
  median: number;
  p90: number;
  p99: number;
  max: number;
} {
  return {
    median: round(percentile(values, 50)),
    p90: round(percentile(values, 90)),
    p99: round(percentile(values, 99)),
    max: round(Math.max(...values)),
  };
}

// Three significant figures are as many as a shared 2-vCPU machine supports (feasibility: ±30 %).
export function round(n: number): number {
  if (!Number.isFinite(n) || n === 0) return n;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(n))));
  return Number(n.toFixed(Math.min(digits, 4)));
}

// Decimal megabytes, as feasibility §C reports sizes.
export function mb(bytes: number): number {
  return round(bytes / 1e6);
}
