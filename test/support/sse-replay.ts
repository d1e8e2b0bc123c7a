// Replays a fixture body through the same SSE framing the transport uses (eventsource-parser), split
// into chunks of a given size, and maps the frames with a provider mapper.
import { createParser } from 'eventsource-parser';
import type { AiEvent } from '../../electron/ai/protocol/events.ts';
import type { StreamMapper } from '../../electron/ai/providers/stream-parts.ts';

export function replay(body: Buffer, mapper: StreamMapper, chunkSize = body.length): AiEvent[] {
  const events: AiEvent[] = [];
  const parser = createParser({
    onEvent: (e) => events.push(...mapper.frame({ ...(e.event ? { event: e.event } : {}), data: e.data })),
  });
  const decoder = new TextDecoder();
  for (let i = 0; i < body.length; i += Math.max(1, chunkSize)) {
    parser.feed(decoder.decode(body.subarray(i, i + chunkSize), { stream: true }));
  }
  parser.feed(decoder.decode());
  events.push(...mapper.end());
  return events;
}

// Chunk sizes to try: every size for short bodies, a spread for long ones.
export function chunkSizes(length: number): number[] {
  if (length <= 3000) return Array.from({ length: Math.min(length, 64) }, (_, i) => i + 1).concat([length]);
  return [1, 2, 3, 5, 7, 13, 64, 512, length];
}
