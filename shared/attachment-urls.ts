// Where browser mode's page downloads an attachment, or all of a message's as a zip (issue 29 §1;
// electron/web/attachment-download.ts answers). Under the bridge's path (shared/ws-protocol.ts `wsPath`), where the
// session cookie is sent; apart from it so the page's first screen loads no zod.
export const attachmentPath = '/bridge/attachment';
export const attachmentsZipPath = '/bridge/attachments.zip';

export const attachmentUrl = (message: number, index: number) =>
  `${attachmentPath}?message=${message}&index=${index}`;
export const attachmentsZipUrl = (message: number) => `${attachmentsZipPath}?message=${message}`;

/** What the download answers, when it cannot, with the sentence (percent-encoded: headers are ASCII). */
export const errorHeader = 'x-skimmer-error';
