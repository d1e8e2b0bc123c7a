import { describe, expect, test } from 'vitest';
import { attachmentChunkBytes } from '../../../shared/contract/index.ts';
import { fileChunks, toBase64 } from './file-chunks.ts';

const decode = (data: string) => Uint8Array.from(atob(data), (c) => c.charCodeAt(0));

async function collect(blob: Blob) {
  const out: { offset: number; data: string }[] = [];
  for await (const chunk of fileChunks(blob)) out.push(chunk);
  return out;
}

describe('file chunks', () => {
  test('writes base64 that reads back to the bytes, past the size one call can spread', () => {
    expect(toBase64(new TextEncoder().encode('Skimmer'))).toBe('U2tpbW1lcg==');
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 31) % 256);
    expect(decode(toBase64(bytes))).toEqual(bytes);
  });

  test('cuts a file into chunks of the contract’s size that join back to its bytes', async () => {
    const bytes = new Uint8Array(attachmentChunkBytes * 2 + 5).map((_, i) => i % 251);
    const chunks = await collect(new Blob([bytes]));
    expect(chunks.map((c) => c.offset)).toEqual([0, attachmentChunkBytes, attachmentChunkBytes * 2]);
    const parts = chunks.map((c) => decode(c.data));
    const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      joined.set(part, at);
      at += part.length;
    }
    expect(joined).toEqual(bytes);
  });

  test('sends an empty file as one empty chunk', async () => {
    expect(await collect(new Blob([]))).toEqual([{ offset: 0, data: '' }]);
  });
});
