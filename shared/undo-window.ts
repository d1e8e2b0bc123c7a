// How long a message sent from Skimmer waits in the outbox before it goes, during which Undo stops it (issue
// 5). The outbox queues by it (electron/mail/outbox.ts), and every sentence that tells the user or a model
// how long there is to undo is written from it, so the number is stated once.
export const undoWindowMs = 10_000;

/** The undo window as a sentence says it: "10 seconds". */
export const undoWindowText = `${undoWindowMs / 1000} seconds`;
