import type { ServiceView } from '../../../shared/contract/index.ts';
import { useServicesStore } from '../stores/services-store.ts';

// Whether mail and document text may go to this service (DESIGN §5). A service on this computer needs no
// consent; a remote one gets none until the user reads exactly what goes where and agrees.
export function ServiceConsent({ service }: { service: ServiceView }) {
  const confirming = useServicesStore((state) => state.confirmConsent === service.id);
  const consenting = useServicesStore((state) => state.consenting);
  const askConsent = useServicesStore((state) => state.askConsent);
  const cancelConsent = useServicesStore((state) => state.cancelConsent);
  const setConsent = useServicesStore((state) => state.setConsent);

  if (!service.remote) {
    return (
      <p className="service-consent local" data-testid="service-consent">
        On this computer: mail never leaves it
      </p>
    );
  }

  if (confirming) {
    return (
      <div
        className="consent-confirm"
        role="alertdialog"
        aria-label={`Send mail to ${service.name}?`}
        data-testid="service-consent-confirm"
      >
        <p className="consent-question">
          Messages you ask about, quoted mail, and mail the assistant reads with its tools will be sent to{' '}
          <code>{service.endpoint}</code> ({service.name}). You can take this back at any time.
        </p>
        <div className="consent-actions">
          <button
            type="button"
            onClick={cancelConsent}
            disabled={consenting}
            data-testid="service-consent-cancel"
          >
            Cancel
          </button>
          <button
            type="button"
            className="primary"
            disabled={consenting}
            data-testid="service-consent-allow"
            onClick={() => void setConsent(service.id, true)}
          >
            {consenting ? 'Allowing…' : 'Allow'}
          </button>
        </div>
      </div>
    );
  }

  return service.mailAllowed ? (
    <div className="service-consent allowed" data-testid="service-consent">
      <span className="consent-text">
        Mail may go to <code>{service.endpoint}</code>
      </span>
      <button
        type="button"
        disabled={consenting}
        data-testid="service-consent-revoke"
        onClick={() => void setConsent(service.id, false)}
      >
        Stop sending mail
      </button>
    </div>
  ) : (
    <div className="service-consent" data-testid="service-consent">
      <span className="consent-text">Mail and documents never go to this service</span>
      <button type="button" data-testid="service-consent-ask" onClick={() => askConsent(service.id)}>
        Allow sending mail to {service.endpoint}…
      </button>
    </div>
  );
}
