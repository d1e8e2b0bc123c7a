// Bounds of the contract that the renderer needs as numbers, kept apart from the schemas so that importing them
// does not bring zod and every channel's schema into the first screen's code (issue 18).

// One attached file at most this big, as Gmail's limit; sent to the main process in chunks (draft:attachChunk),
// each well under the bridge's frame limit (shared/ws-protocol.ts).
export const maxAttachmentBytes = 25 * 1024 * 1024;
export const attachmentChunkBytes = 1024 * 1024;

// More than this many conversations in one request is refused (a view larger than that is acted on in parts).
export const maxSelectedThreads = 10_000;

// A folder listing for the file browser (`files:browse`) holds at most this many entries, folders first; a filter
// narrows a bigger folder.
export const maxBrowseEntries = 2000;

// The label colours (issue 29 §4). A colour is a name from this palette, not a CSS value: the renderer picks the shade that
// keeps the chip's text readable in the light and the dark theme, and nothing the page sends becomes a style.
export const labelColours = [
  'grey',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'purple',
  'pink',
] as const;

/** The most bytes one `attachment:read` answers: a page reads a large attachment range by range. */
export const attachmentReadBytes = 1024 * 1024;

// What the reader's preview of an attachment reads (issue 29 §1), whole, a range at a time: a PDF up to this size
// (pdfjs given the bytes in memory; reading it range by range from the page hit "Bad end offset"), an image up to
// this size, and the first bytes of a text. Larger files are named with Save instead.
export const previewPdfBytes = 40 * 1024 * 1024;
export const previewImageBytes = 20 * 1024 * 1024;
export const previewTextBytes = 256 * 1024;
