import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { invalidRequest, parameterMissing, StripeApiError } from "../errors.js";
import { newId } from "../ids.js";
import {
  buildAddress,
  buildRegistration,
  buildTaxSettings,
  type EuRegistrationType,
  refreshTaxSettingsStatus,
  registrationStatus,
} from "../objects/tax.js";
import { snapshot } from "../state/snapshot.js";
import type { Scope } from "../state/types.js";
import { type Coverage, EU_MEMBERS, isEu } from "../tax/calculate.js";
import type { EventOrigin } from "../webhooks/events.js";

// Stripe Tax's account side: settings (head office, defaults) and registrations, shared by the API,
// the emulated Dashboard page and the control API so all three change the same things the same way.

const settingsKey = (account: Scope) => account ?? "platform";

/** The account's tax settings (a fresh account's until something is set). */
export function taxSettingsOf(emulator: Emulator, account: Scope): Stripe.Tax.Settings {
  return emulator.store.state.taxSettings[settingsKey(account)] ?? buildTaxSettings();
}

export interface TaxSettingsUpdate {
  defaults?:
    | {
        tax_behavior?: "inclusive" | "exclusive" | "inferred_by_currency" | undefined;
        tax_code?: string | undefined;
      }
    | undefined;
  headOffice?: Partial<Stripe.Address> | undefined;
}

/**
 * Applies an update; when anything changed, saves it and sends `tax.settings.updated` (on a connected
 * account a Connect event) with `previous_attributes`.
 */
export function updateTaxSettings(
  emulator: Emulator,
  account: Scope,
  update: TaxSettingsUpdate,
  origin: EventOrigin,
): Stripe.Tax.Settings {
  const settings = snapshot(taxSettingsOf(emulator, account));
  const before = snapshot(settings);
  if (update.defaults?.tax_behavior !== undefined)
    settings.defaults.tax_behavior = update.defaults.tax_behavior;
  if (update.defaults?.tax_code !== undefined) settings.defaults.tax_code = update.defaults.tax_code;
  if (update.headOffice) {
    const country = update.headOffice.country?.trim().toUpperCase();
    if (!country) throw parameterMissing("head_office[address][country]");
    if (!/^[A-Z]{2}$/.test(country)) {
      throw invalidRequest(
        `Country '${update.headOffice.country}' is unknown. Try using a 2-character alphanumeric country code instead, such as 'US', 'EG', or 'GB'. A full list of country codes is available at https://stripe.com/docs/api/tax/settings/update#update_tax_settings-head_office-address-country`,
        "head_office[address][country]",
      );
    }
    const state = update.headOffice.state?.trim().toUpperCase() || null;
    if (country === "US" && !state) throw parameterMissing("head_office[address][state]");
    settings.head_office = { address: buildAddress({ ...update.headOffice, country, state }) };
  }
  refreshTaxSettingsStatus(settings);
  const previous: Partial<Stripe.Tax.Settings> = {};
  const changed = (key: keyof Stripe.Tax.Settings) =>
    JSON.stringify(before[key]) !== JSON.stringify(settings[key]);
  if (changed("defaults")) previous.defaults = before.defaults;
  if (changed("head_office")) previous.head_office = before.head_office;
  if (changed("status")) previous.status = before.status;
  if (changed("status_details")) previous.status_details = before.status_details;
  if (Object.keys(previous).length === 0) return settings;
  emulator.store.set("taxSettings", settingsKey(account), settings);
  emulator.events.emit(
    account,
    { type: "tax.settings.updated", data: { object: settings, previous_attributes: previous } },
    origin,
  );
  return settings;
}

const US_TYPES = [
  "state_sales_tax",
  "local_amusement_tax",
  "local_lease_tax",
  "state_communications_tax",
] as const;
const EU_TYPES: readonly EuRegistrationType[] = ["ioss", "oss_non_union", "oss_union", "standard"];

type EuKey = Lowercase<(typeof EU_MEMBERS)[number]>;

export interface RegistrationInput {
  country?: string | undefined;
  countryOptions?:
    | Record<
        string,
        {
          type?: string | undefined;
          state?: string | undefined;
          standard?: { place_of_supply_scheme: "standard" | "small_seller" } | undefined;
        }
      >
    | undefined;
  activeFrom?: number | "now" | undefined;
  expiresAt?: number | "now" | undefined;
}

/** `POST /v1/tax/registrations`, checked as Stripe checks it. */
export function createRegistration(
  emulator: Emulator,
  account: Scope,
  input: RegistrationInput,
): Stripe.Tax.Registration {
  const now = emulator.now();
  if (!input.country) throw parameterMissing("country");
  if (input.activeFrom === undefined) throw parameterMissing("active_from");
  const country = input.country.toUpperCase();
  const key = country.toLowerCase();
  const options = input.countryOptions?.[key];
  const extra = Object.keys(input.countryOptions ?? {}).find((other) => other !== key);
  if (extra) {
    throw invalidRequest(
      `country_options[${extra}] does not match country '${country}'. Provide the options of the registration's country only.`,
      `country_options[${extra}]`,
    );
  }
  if (!options?.type) throw parameterMissing(`country_options[${key}][type]`);
  const scheme = options.standard?.place_of_supply_scheme ?? "standard";
  const countryOptions = registrationOptions(country, options.type, options.state, scheme);
  const activeFrom = input.activeFrom === "now" ? now : input.activeFrom;
  const expiresAt = input.expiresAt === "now" ? now : (input.expiresAt ?? null);
  if (expiresAt !== null && expiresAt <= activeFrom) {
    throw invalidRequest("`expires_at` must be after `active_from`.", "expires_at");
  }
  const state = country === "US" ? (options.state?.toUpperCase() ?? null) : null;
  const clash = registrationsOf(emulator, account).find(
    (registration) =>
      registration.status !== "expired" &&
      coverageOf(registration).country === country &&
      coverageOf(registration).type === options.type &&
      coverageOf(registration).state === state,
  );
  if (clash) {
    throw invalidRequest(
      `A registration (${clash.id}) already exists for this jurisdiction and type. Expire it first to replace it.`,
      "country",
    );
  }
  const registration = buildRegistration(newId("taxreg"), now, {
    country,
    countryOptions,
    activeFrom,
    expiresAt,
  });
  emulator.store.put("taxRegistrations", account, registration);
  return registration;
}

function registrationOptions(
  country: string,
  type: string,
  state: string | undefined,
  scheme: "standard" | "small_seller",
): Stripe.Tax.Registration.CountryOptions {
  const param = `country_options[${country.toLowerCase()}][type]`;
  if (country === "US") {
    if (!state) throw parameterMissing("country_options[us][state]");
    if (!(US_TYPES as readonly string[]).includes(type)) {
      throw invalidRequest(`Invalid ${param}: must be one of ${US_TYPES.join(", ")}`, param);
    }
    return { us: { state: state.toUpperCase(), type } };
  }
  if (country === "GB") {
    if (type !== "standard") throw invalidRequest(`Invalid ${param}: must be one of standard`, param);
    return { gb: { standard: { place_of_supply_scheme: "standard" }, type: "standard" } };
  }
  if (isEu(country)) {
    if (!(EU_TYPES as readonly string[]).includes(type)) {
      throw invalidRequest(`Invalid ${param}: must be one of ${EU_TYPES.join(", ")}`, param);
    }
    const options: Stripe.Tax.Registration.CountryOptions = {};
    const euKey = EU_MEMBERS.map((member) => member.toLowerCase()).find(
      (member): member is EuKey => member === country.toLowerCase(),
    );
    if (!euKey) throw invalidRequest(`Invalid country: ${country}`, "country");
    options[euKey] = type === "standard" ? { standard: { place_of_supply_scheme: scheme }, type } : { type };
    return options;
  }
  throw invalidRequest(
    `The local Stripe emulator supports tax registrations in the EU member states, GB and the US, not '${country}'.`,
    "country",
  );
}

/** The account's registrations with their status as of now, newest first. */
export function registrationsOf(emulator: Emulator, account: Scope): Stripe.Tax.Registration[] {
  return emulator.store
    .list("taxRegistrations", account)
    .map((registration) => refreshRegistration(emulator, account, registration));
}

/** Time moves: `scheduled` → `active` → `expired` are read off the clock. */
export function refreshRegistration(
  emulator: Emulator,
  account: Scope,
  registration: Stripe.Tax.Registration,
): Stripe.Tax.Registration {
  const status = registrationStatus(registration.active_from, registration.expires_at, emulator.now());
  if (status !== registration.status) {
    registration.status = status;
    emulator.store.put("taxRegistrations", account, registration);
  }
  return registration;
}

/** `POST /v1/tax/registrations/:id`: `active_from` (while scheduled) and `expires_at` (`now` ends it). */
export function updateRegistration(
  emulator: Emulator,
  account: Scope,
  registration: Stripe.Tax.Registration,
  input: { activeFrom?: number | "now" | undefined; expiresAt?: number | "now" | null | undefined },
): Stripe.Tax.Registration {
  const now = emulator.now();
  refreshRegistration(emulator, account, registration);
  if (registration.status === "expired") {
    throw invalidRequest("This registration has expired and can no longer be updated.");
  }
  if (input.activeFrom !== undefined) {
    if (registration.status !== "scheduled") {
      throw invalidRequest(
        "`active_from` can only be changed while the registration is scheduled.",
        "active_from",
      );
    }
    registration.active_from = input.activeFrom === "now" ? now : input.activeFrom;
  }
  if (input.expiresAt !== undefined) {
    const expiresAt = input.expiresAt === "now" ? now : input.expiresAt;
    if (expiresAt !== null && expiresAt < now) {
      throw invalidRequest("`expires_at` cannot be in the past.", "expires_at");
    }
    registration.expires_at = expiresAt;
  }
  registration.status = registrationStatus(registration.active_from, registration.expires_at, now);
  emulator.store.put("taxRegistrations", account, registration);
  return registration;
}

/** What decides where a registration lets the account collect tax. */
export function coverageOf(registration: Stripe.Tax.Registration): Coverage {
  const options = registration.country_options;
  const key = registration.country.toLowerCase();
  const entry = Object.entries(options).find(([name]) => name === key)?.[1];
  const type = entry && typeof entry === "object" && "type" in entry ? String(entry.type) : "standard";
  return {
    country: registration.country,
    type,
    state: registration.country === "US" ? (options.us?.state ?? null) : null,
  };
}

/** Active registrations only. */
export function activeCoverage(emulator: Emulator, account: Scope): Coverage[] {
  return registrationsOf(emulator, account)
    .filter((registration) => registration.status === "active")
    .map(coverageOf);
}

export function requireActiveTax(emulator: Emulator, account: Scope): void {
  if (taxSettingsOf(emulator, account).status === "active") return;
  throw new StripeApiError(
    400,
    "invalid_request_error",
    "Stripe Tax has not been activated on your account. Please visit https://dashboard.stripe.com/settings/tax to get started (set a head office address).",
    undefined,
    "automatic_tax[enabled]",
  );
}
