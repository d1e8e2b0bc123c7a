// DESIGN §7 "Provenance": an argument whose text came from an email and not from the user's words (or an
// address or URL the user never wrote) carries this mark on the approval card. `what` says which. `text`
// replaces the words where the source may be other than an email (an outside agent's own arguments).
export function FromEmailMark({ what, text }: { what: string; text?: string }) {
  return (
    <span
      className="from-email-mark"
      data-testid="provenance-mark"
      data-what={what}
      title={text ? `${what}: ${text}.` : `${what} came from an email, not from anything you wrote.`}
    >
      {text ?? 'from the email, not from you'}
    </span>
  );
}
