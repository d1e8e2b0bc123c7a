// Real special files for the tests of the file rule (electron/files/safe-open.ts): a FIFO, a socket, a sparse file,
// links. Made in a temporary folder the test owns; nothing is mocked.
import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll } from 'vitest';

/** A FIFO (Node has no mkfifo: coreutils' does it). Opening it to read would wait for a writer. */
export function makeFifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/** A Unix socket file, listened on until the test file ends. */
export async function makeSocket(path: string): Promise<void> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(path, resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

/** A file of `size` bytes that takes no disk: its size is all there is to it. */
export function makeSparse(path: string, size: number): void {
  const fd = openSync(path, 'w');
  ftruncateSync(fd, size);
  closeSync(fd);
}

export const GiB = 1024 * 1024 * 1024;
