// A message with files (issue 29 §1's tests and bench/attachments.ts): multipart/mixed, a line of text, then each
// file base64 under its name (RFC 2231, so any name a sender could write arrives as written).
export type MailFile = { name: string; type: string; body: Buffer };

export function mailWithFiles(id: string, subject: string, files: readonly MailFile[]): string {
  return [
    'From: Lee Park <lee@example.org>',
    'To: Test <test@example.com>',
    `Subject: ${subject}`,
    'Date: Mon, 30 Nov 2026 11:00:00 +0000',
    `Message-ID: <${id}>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `${subject}, attached.`,
    ...files.flatMap((f) => [
      '--b1',
      `Content-Type: ${f.type}; name*=UTF-8''${encodeURIComponent(f.name)}`,
      `Content-Disposition: attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`,
      'Content-Transfer-Encoding: base64',
      '',
      f.body.toString('base64').replace(/.{76}/g, '$&\r\n'),
    ]),
    '--b1--',
    '',
  ].join('\r\n');
}
