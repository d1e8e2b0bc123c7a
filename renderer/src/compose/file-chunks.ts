// A picked file as the base64 chunks draft:attachChunk carries (shared/contract/drafts.ts): read one chunk at
// a time, so a 25 MB file is never held as one 33 MB string in the page.
import { attachmentChunkBytes } from '../../../shared/contract/limits.ts';

/** Base64 of bytes, built in slices: String.fromCharCode over a whole megabyte overflows the call stack. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const slice = 0x8000;
  for (let i = 0; i < bytes.length; i += slice) {
    binary += String.fromCharCode(...bytes.subarray(i, i + slice));
  }
  return btoa(binary);
}

/** The file's chunks in order, each with its offset; an empty file is one empty chunk, which completes it. */
export async function* fileChunks(file: Blob): AsyncGenerator<{ offset: number; data: string }> {
  let offset = 0;
  do {
    const bytes = new Uint8Array(await file.slice(offset, offset + attachmentChunkBytes).arrayBuffer());
    yield { offset, data: toBase64(bytes) };
    offset += attachmentChunkBytes;
  } while (offset < file.size);
}
