import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:880px;margin:0 auto;padding:24px 16px}
h1{font-size:22px;margin:0 0 4px}.hint{color:#64748b;font-size:14px;margin:0 0 20px}
ul{list-style:none;padding:0;margin:0;background:#fff;border:1px solid #e2e8f0;border-radius:12px;overflow:hidden}
li+li{border-top:1px solid #e2e8f0}
a.row{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:4px 16px;padding:14px 16px;color:inherit;text-decoration:none}
.subject,.meta{overflow-wrap:anywhere}
a.row:hover{background:#f1f5f9}.subject{font-weight:600}.meta{color:#64748b;font-size:13px}
.empty{padding:32px;text-align:center;color:#64748b}
.status{font-size:12px;padding:2px 8px;border-radius:999px;background:#dcfce7;color:#166534;align-self:start;justify-self:end}
@media (max-width:480px){a.row{grid-template-columns:minmax(0,1fr)}.status{justify-self:start}}
</style></head><body><main>${body}</main></body></html>`;

/**
 * Embedded mode only: every email the app sends, readable in the browser, links clickable.
 * Registered only when no SMTP server is configured.
 */
export function registerDevMailbox(app: FastifyInstance, deps: { db: Database }): void {
  app.get("/dev/mailbox", async (_request, reply) => {
    const emails = await deps.db
      .selectFrom("outbox_emails")
      .select(["id", "to_address", "subject", "created_at", "status"])
      .orderBy("id", "desc")
      .limit(200)
      .execute();
    const rows = emails
      .map(
        (email) => `<li><a class="row" href="/dev/mailbox/${email.id}">
<span class="subject">${escapeHtml(email.subject)}</span><span class="status">${email.status}</span>
<span class="meta">To ${escapeHtml(email.to_address)}</span><span class="meta">${email.created_at.toISOString().replace("T", " ").slice(0, 19)} UTC</span></a></li>`,
      )
      .join("");
    return reply
      .type("text/html")
      .send(
        page(
          "Mailbox",
          `<h1>Mailbox</h1><p class="hint">Local development mailbox: every email the app sends lands here instead of a real inbox (set SMTP_URL to send for real).</p>${
            rows ? `<ul>${rows}</ul>` : `<ul><li class="empty">No emails yet.</li></ul>`
          }`,
        ),
      );
  });

  app.get("/dev/mailbox/:id", async (request, reply) => {
    const parsed = z.object({ id: z.coerce.number().int().positive() }).safeParse(request.params);
    const email = parsed.success
      ? await deps.db
          .selectFrom("outbox_emails")
          .selectAll()
          .where("id", "=", parsed.data.id)
          .executeTakeFirst()
      : undefined;
    if (!email) throw notFound("No such email");
    const banner = `<div style="font-family:-apple-system,sans-serif;background:#0f172a;color:#e2e8f0;padding:10px 16px;font-size:13px;overflow-wrap:anywhere">
<a href="/dev/mailbox" style="color:#a5b4fc">&larr; Mailbox</a> &nbsp; To: ${escapeHtml(email.to_address)} &nbsp; Subject: ${escapeHtml(email.subject)}</div>`;
    // A replacer function: "$&", "$'" and "$`" in a subject are text, not replacement patterns.
    const withBanner = email.html.replace(
      /<body([^>]*)>/,
      (_match, attributes: string) => `<body${attributes}>${banner}`,
    );
    return reply.type("text/html").send(withBanner);
  });
}
