export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) on a seller's emails. */
  headers?: Record<string, string>;
}

/** Where the outbox hands an email: an SMTP server in production, nowhere in embedded mode (read it at /dev/mailbox). */
export interface MailTransport {
  readonly kind: "smtp" | "mailbox";
  send(email: OutgoingEmail & { from: string }): Promise<void>;
  isHealthy(): Promise<boolean>;
}

export function mailboxTransport(): MailTransport {
  return {
    kind: "mailbox",
    async send() {},
    async isHealthy() {
      return true;
    },
  };
}
