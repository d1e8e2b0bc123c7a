// What a parse may refuse, and how much of a message may be stored, apart from the parser itself (parse.ts): the
// import worker and the parse pool need these, and loading parse.ts (mailparser and its charset tables, 1.2 MB built)
// made the import worker start a tenth of a second later, with the parse thread's start waiting behind it (issue 18).

// Bounds on what one message may put in the database; the original stays at its source.
export const maxStoredText = 2 * 1024 * 1024;
export const maxMessageBytes = 100 * 1024 * 1024;

export class ParseError extends Error {}
