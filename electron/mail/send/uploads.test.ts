import { describe, expect, test } from 'vitest';
import { MailError } from '../mail-error.ts';
import { prepareUploads } from './uploads.ts';

const file = (draftId = 1, size = 4) => ({ draftId, name: 'a.txt', contentType: 'text/plain', size });
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    return e instanceof MailError ? e.reason : 'other';
  }
  return 'none';
};

describe('uploads', () => {
  test('gives each upload a random id and the whole file on its last chunk', () => {
    const uploads = prepareUploads();
    const a = uploads.start(file());
    const b = uploads.start(file());
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).not.toBe(a);
    expect(uploads.chunk(a, 0, Buffer.from('ab'))).toEqual({ received: 2, done: null });
    expect(uploads.chunk(a, 2, Buffer.from('cd'))).toEqual({
      received: 4,
      done: { ...file(), content: Buffer.from('abcd') },
    });
  });

  test('completes an empty file with an empty chunk', () => {
    const uploads = prepareUploads();
    const id = uploads.start(file(1, 0));
    expect(uploads.chunk(id, 0, Buffer.alloc(0)).done?.content).toEqual(Buffer.alloc(0));
  });

  test('refuses an empty chunk before the end, and forgets the upload', () => {
    const uploads = prepareUploads();
    const id = uploads.start(file());
    expect(refusal(() => uploads.chunk(id, 0, Buffer.alloc(0)))).toBe('invalid');
    expect(refusal(() => uploads.chunk(id, 0, Buffer.from('abcd')))).toBe('not_found');
  });

  test('takes only so many uploads at once', () => {
    const uploads = prepareUploads({ concurrent: 2, idleMs: 1000 });
    uploads.start(file());
    const second = uploads.start(file());
    expect(refusal(() => uploads.start(file()))).toBe('wrong_state');
    uploads.chunk(second, 0, Buffer.from('abcd'));
    expect(refusal(() => uploads.start(file()))).toBe('none');
  });

  test('forgets an upload left without a chunk for too long', () => {
    let t = 0;
    const uploads = prepareUploads({ concurrent: 1, idleMs: 1000 }, () => t);
    const id = uploads.start(file());
    t = 900;
    uploads.chunk(id, 0, Buffer.from('a'));
    t = 1800; // 900 ms after the last chunk: still open
    uploads.chunk(id, 1, Buffer.from('b'));
    t = 2801;
    expect(refusal(() => uploads.chunk(id, 2, Buffer.from('c')))).toBe('not_found');
    expect(refusal(() => uploads.start(file()))).toBe('none');
  });

  test('counts the bytes announced for a draft and forgets them with it', () => {
    const uploads = prepareUploads();
    uploads.start(file(7, 10));
    uploads.start(file(7, 5));
    uploads.start(file(8, 3));
    expect(uploads.pendingFor(7)).toBe(15);
    uploads.dropFor(7);
    expect(uploads.pendingFor(7)).toBe(0);
    expect(uploads.pendingFor(8)).toBe(3);
  });
});
