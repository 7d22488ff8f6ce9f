import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, resourceMissing } from "../errors.js";
import { newId } from "../ids.js";
import { paginate } from "../lists.js";
import { buildAccount } from "../objects/account.js";
import { listParams, mergeMetadata, metadata, parseParams, requiredText, text } from "../params.js";
import type { Scope } from "../state/types.js";

/** Stripe's onboarding links are short-lived. */
const ACCOUNT_LINK_LIFETIME_SECONDS = 300;

/** Stripe unsets a field sent as an empty string. */
const businessName = () => text().transform((name) => (name === "" ? null : name));

const createSchema = z.strictObject({
  type: z.enum(["standard", "express", "custom"]).optional(),
  email: text().optional(),
  country: z.string().length(2).optional(),
  metadata: metadata().optional(),
  business_profile: z.strictObject({ name: businessName().optional(), url: text().optional() }).optional(),
  default_currency: text().optional(),
});

const updateSchema = z.strictObject({
  email: text().optional(),
  metadata: metadata().optional(),
  business_profile: z.strictObject({ name: businessName().optional(), url: text().optional() }).optional(),
});

const linkSchema = z.strictObject({
  account: requiredText(),
  type: z.enum(["account_onboarding", "account_update"]),
  refresh_url: requiredText(),
  return_url: requiredText(),
  collect: z.enum(["currently_due", "eventually_due"]).optional(),
});

export function registerAccounts(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;
  const accounts = () => store.state.accounts;

  /** The platform sees every connected account; a connected account only itself. */
  const visibleAccount = (scope: Scope, id: string, param = "id"): Stripe.Account => {
    const account = accounts()[id];
    if (!account || (scope !== null && scope !== id)) throw resourceMissing("account", id, param);
    return account;
  };

  routes.post("/v1/accounts", ({ account: scope, params }) => {
    if (scope !== null) throw invalidRequest("Connected accounts cannot create other accounts.");
    const input = parseParams(createSchema, params);
    const account = buildAccount(newId("acct"), emulator.now(), {
      email: input.email ?? null,
      country: input.country?.toUpperCase() ?? "US",
      metadata: mergeMetadata({}, input.metadata),
      businessName: input.business_profile?.name ?? null,
    });
    if (input.type && input.type !== "standard") account.type = input.type;
    if (input.business_profile?.url && account.business_profile)
      account.business_profile.url = input.business_profile.url;
    if (input.default_currency) account.default_currency = input.default_currency.toLowerCase();
    store.set("accounts", account.id, account);
    return account;
  });

  /** Reads also reach the platform's own account, which the emulator does not let anyone change. */
  const readableAccount = (scope: Scope, id: string): Stripe.Account =>
    scope === null && id === store.state.platformAccount.id
      ? store.state.platformAccount
      : visibleAccount(scope, id);

  routes.get("/v1/accounts/:id", ({ account: scope, id }) => readableAccount(scope, id));

  routes.get("/v1/account", ({ account: scope }) =>
    readableAccount(scope, scope ?? store.state.platformAccount.id),
  );

  routes.post("/v1/accounts/:id", ({ account: scope, id, params }) => {
    const account = visibleAccount(scope, id);
    const input = parseParams(updateSchema, params);
    if (input.email !== undefined) account.email = input.email;
    if (input.business_profile && account.business_profile) {
      if (input.business_profile.name !== undefined)
        account.business_profile.name = input.business_profile.name;
      if (input.business_profile.url !== undefined) account.business_profile.url = input.business_profile.url;
    }
    account.metadata = mergeMetadata(account.metadata ?? {}, input.metadata);
    store.set("accounts", account.id, account);
    return account;
  });

  routes.get("/v1/accounts", ({ account: scope, params }) => {
    const input = parseParams(z.strictObject(listParams), params);
    const all = scope === null ? Object.values(accounts()).reverse() : [];
    return paginate(all, input, "/v1/accounts", "account");
  });

  routes.post("/v1/account_links", ({ account: scope, params }) => {
    const input = parseParams(linkSchema, params);
    visibleAccount(scope, input.account, "account");
    const token = randomBytes(18).toString("base64url");
    const created = emulator.now();
    const expiresAt = created + ACCOUNT_LINK_LIFETIME_SECONDS;
    store.set("accountLinks", token, {
      token,
      account: input.account,
      refreshUrl: input.refresh_url,
      returnUrl: input.return_url,
      expiresAt,
      state: "new",
    });
    const link: Stripe.AccountLink = {
      object: "account_link",
      created,
      expires_at: expiresAt,
      url: `${emulator.publicUrl}/setup/s/${token}`,
    };
    return link;
  });
}
