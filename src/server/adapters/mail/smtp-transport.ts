import nodemailer from "nodemailer";
import type { MailTransport } from "./transport";

/** Production mail: loaded by boot only when SMTP_URL is set, so the embedded mode never loads nodemailer. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    kind: "smtp",
    async send(email) {
      await transporter.sendMail(email);
    },
    async isHealthy() {
      return transporter.verify().then(
        () => true,
        () => false,
      );
    },
  };
}
