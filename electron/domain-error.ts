// The base of every error Skimmer's own code throws for an expected failure (issue 30): a reason from the
// class's own list, and a sentence for the person. Domain code throws its subclasses and knows nothing of who
// shows them; the bridge maps each class once (bridge/errors.ts), and a worker thread sends one across by its
// kind (thread-errors.ts), so a failure reads the same wherever it surfaces.
export class DomainError<R extends string = string> extends Error {
  readonly reason: R;
  constructor(reason: R, message: string) {
    super(message);
    this.reason = reason;
  }
}
