// The heap limits of the import's threads (the import worker and its parse threads), which fill their heaps with
// short-lived strings and buffers at once (issue 18, bench/README.md):
// - The young generation: V8 lets each thread's grow to 48 MB by default before it collects; four threads held
//   about 190 MB that way, a third of the import's peak memory. At 8 MB they collect sooner, for no measurable time.
// - The old generation: V8 collects it once it has grown to a multiple of what was alive after the last collection,
//   and that multiple follows the most it may ever grow to (V8 heap-controller.cc, MaxGrowingFactor): 4 under
//   Node's default limit, a few GB here, so each thread let about 50 MB of dead messages pile up before it
//   collected them; 1.4 under a limit of 512 MB. With that limit the whole import's peak was about 100 MB lower
//   (250 MB, not 350), for 1–3 % more time. A message takes a few MB: a parse thread reads its bodies without its
//   attachments (strip-attachments.ts) and keeps at most 2 MB of its text. One near the 100 MB bound that is all
//   text in a script outside Latin-1 (each copy of it 200 MB) can run a parse thread out: it fails only the batch
//   it held, each message with its reason (parse-pool.ts), and the import goes on.
export const importThreadLimits = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 } as const;
