// What the documents side refuses, with the sentence to show. The reason is a closed set; only
// electron/bridge/errors.ts turns it into an envelope code.
import { DomainError } from '../domain-error.ts';

export type DocumentErrorReason =
  /** A file Skimmer cannot take as a document: not a kind it reads, missing, too large or damaged. */
  | 'unreadable'
  /** A document, or a part of one, named by id is not there. */
  | 'not_found'
  /** The documents chosen hold no text to read (a scanned PDF needs OCR first). */
  | 'no_text';

export class DocumentError extends DomainError<DocumentErrorReason> {}
