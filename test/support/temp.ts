// Temporary folders for tests: real files on disk, removed after each test file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function tempDir(prefix = 'skimmer-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function eml(opts: {
  id?: string;
  subject: string;
  from?: string;
  date?: string;
  inReplyTo?: string;
  references?: string;
  body?: string;
}): string {
  return [
    `From: ${opts.from ?? 'Alice <alice@example.com>'}`,
    'To: Bob <bob@example.com>',
    `Subject: ${opts.subject}`,
    `Date: ${opts.date ?? 'Sun, 29 Nov 2026 10:00:00 +0000'}`,
    ...(opts.id ? [`Message-ID: ${opts.id}`] : []),
    ...(opts.inReplyTo ? [`In-Reply-To: ${opts.inReplyTo}`] : []),
    ...(opts.references ? [`References: ${opts.references}`] : []),
    'Content-Type: text/plain; charset=utf-8',
    '',
    opts.body ?? 'Hello.',
    '',
  ].join('\r\n');
}
