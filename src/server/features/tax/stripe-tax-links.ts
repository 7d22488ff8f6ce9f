/**
 * Where a seller fixes Stripe Tax on their own account. On Stripe it is their dashboard's tax settings
 * (signed in as themselves); the emulator serves the same pages for a connected account by its id.
 */
export function stripeTaxLinks(dashboardUrl: string, accountId: string) {
  if (dashboardUrl.startsWith("https://dashboard.stripe.com")) {
    return {
      settings: `${dashboardUrl}/settings/tax`,
      registrations: `${dashboardUrl}/settings/tax/registrations`,
    };
  }
  const page = `${dashboardUrl}/dashboard/tax?account=${encodeURIComponent(accountId)}`;
  return { settings: page, registrations: page };
}
