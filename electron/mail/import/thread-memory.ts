// The young generation of the import's threads (the import worker and its parse threads). V8 lets each
// thread's grow to 48 MB by default before it collects, and an import's threads fill theirs with short-lived
// strings and buffers at once: four threads held about 190 MB that way, a third of the import's peak memory.
// At 16 MB they collect sooner, for no measurable time (issue 18, bench/README.md).
export const importThreadLimits = { maxYoungGenerationSizeMb: 8 } as const;
