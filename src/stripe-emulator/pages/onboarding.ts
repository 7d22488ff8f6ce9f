import type { FastifyInstance } from "fastify";
import { finishOnboarding } from "../actions/onboarding.js";
import type { Emulator } from "../emulator.js";
import type { AccountLinkRecord } from "../state/types.js";
import { html, layout, messagePage } from "./layout.js";

/**
 * Connect onboarding behind an account link. Like Stripe's, a link works once: opening it again,
 * or after `expires_at`, sends the user to `refresh_url` so the app can make a new one.
 */
export function registerOnboardingPage(app: FastifyInstance, emulator: Emulator): void {
  const usableLink = (token: string): AccountLinkRecord | undefined => {
    const link = emulator.store.state.accountLinks[token];
    return link && link.expiresAt > emulator.now() ? link : undefined;
  };

  app.get<{ Params: { token: string } }>("/setup/s/:token", (request, reply) => {
    const link = emulator.store.state.accountLinks[request.params.token];
    if (!link)
      return reply
        .status(404)
        .type("text/html")
        .send(messagePage("Link not found", "This onboarding link is not valid."));
    if (!usableLink(link.token) || link.state !== "new") return reply.redirect(link.refreshUrl, 303);
    link.state = "opened";
    emulator.store.set("accountLinks", link.token, link);
    const account = emulator.store.state.accounts[link.account];
    return reply.type("text/html").send(
      layout(
        "Set up payments",
        html`<main class="page narrow"><div class="card">
<p class="merchant"><span class="logo" aria-hidden="true">S</span>Stripe Connect</p>
<h1>Set up payments</h1>
<p class="muted">In live mode this is where Stripe collects business details, identity and a bank account for <strong>${account?.email ?? link.account}</strong>. Here you choose the outcome.</p>
<dl><dt>Account</dt><dd>${link.account}</dd><dt>Charges</dt><dd>${account?.charges_enabled ? "Enabled" : "Not enabled"}</dd></dl>
<form method="post" class="actions">
  <button class="button" type="submit" name="action" value="complete">Complete onboarding</button>
  <button class="button secondary" type="submit" name="action" value="incomplete">Leave incomplete</button>
</form>
<p class="hint">Completing enables charges and payouts and sends <code>account.updated</code> to the Connect webhook.</p>
</div></main>`,
      ),
    );
  });

  app.post<{ Params: { token: string }; Body: { action?: string } }>("/setup/s/:token", (request, reply) => {
    const link = emulator.store.state.accountLinks[request.params.token];
    if (!link)
      return reply
        .status(404)
        .type("text/html")
        .send(messagePage("Link not found", "This onboarding link is not valid."));
    if (!usableLink(link.token) || link.state !== "opened") return reply.redirect(link.refreshUrl, 303);
    link.state = "used";
    emulator.store.set("accountLinks", link.token, link);
    const account = emulator.store.state.accounts[link.account];
    if (account && request.body?.action === "complete") finishOnboarding(emulator, account);
    return reply.redirect(link.returnUrl, 303);
  });
}
