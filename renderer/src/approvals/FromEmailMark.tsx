// DESIGN §7 "Provenance": an argument whose text came from an email and not from the user's words (or an
// address or URL the user never wrote) carries this mark on the approval card. `what` says which.
export function FromEmailMark({ what }: { what: string }) {
  return (
    <span
      className="from-email-mark"
      data-testid="provenance-mark"
      data-what={what}
      title={`${what} came from an email, not from anything you wrote.`}
    >
      from the email, not from you
    </span>
  );
}
