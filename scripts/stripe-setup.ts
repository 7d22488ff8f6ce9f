import Stripe from "stripe";
import {
  describeStripeSetup,
  isSetUp,
  setUpStripeAccount,
} from "../src/server/adapters/payments/stripe-account-setup";
import { createStripeClient } from "../src/server/adapters/payments/stripe-client";
import { ConfigError, loadStripeSetupConfig } from "../src/server/config";

// `npm run stripe:setup [-- --recreate]`: prepares the Stripe account behind STRIPE_SECRET_KEY for the
// app at APP_URL (webhook endpoints, billing portal) and prints the signing secrets to set. Safe to re-run.
try {
  const config = loadStripeSetupConfig();
  const stripe = createStripeClient({ kind: "stripe", secretKey: config.secretKey });
  const setup = await setUpStripeAccount(stripe, config.appUrl, {
    recreateWrongVersion: process.argv.includes("--recreate"),
  });
  console.info(`Stripe account set up for ${config.appUrl}\n\n${describeStripeSetup(setup)}`);
  if (!isSetUp(setup)) process.exitCode = 1;
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof Stripe.errors.StripeError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
