import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";

export function passwordResetEmail(to: string, resetUrl: string): OutgoingEmail {
  return {
    to,
    subject: "Reset your Flatfee password",
    ...renderEmail({
      preheader: "Choose a new password for your Flatfee account.",
      heading: "Reset your password",
      paragraphs: [
        "Someone (hopefully you) asked to reset the password of your Flatfee account.",
        "Click the button below to choose a new one. If you did not ask for this, ignore this email: your password stays as it is.",
      ],
      button: { label: "Choose a new password", url: resetUrl },
      note: "This link is valid for 1 hour and works once.",
    }),
  };
}
