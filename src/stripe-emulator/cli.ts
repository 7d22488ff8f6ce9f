import { resolve } from "node:path";
import { DEFAULT_PORT, startStripeEmulator, type WebhookEndpoints } from "./index.js";

// `npm run stripe-emulator`: the emulator alone, state under ./data, webhooks from the environment.
function endpoint(url: string | undefined, secret: string | undefined) {
  return url ? { url, secret: secret ?? "whsec_local_emulator" } : undefined;
}

const webhooks: WebhookEndpoints = {};
const platform = endpoint(process.env.STRIPE_WEBHOOK_URL, process.env.STRIPE_WEBHOOK_SECRET);
const connect = endpoint(process.env.STRIPE_CONNECT_WEBHOOK_URL, process.env.STRIPE_CONNECT_WEBHOOK_SECRET);
if (platform) webhooks.platform = platform;
if (connect) webhooks.connect = connect;

const running = await startStripeEmulator({
  port: Number(process.env.STRIPE_EMULATOR_PORT ?? DEFAULT_PORT),
  stateFile: resolve("data/stripe-emulator.json"),
  webhooks,
});
console.info(
  `Local Stripe emulator listening on ${running.url} (test mode, state in data/stripe-emulator.json)`,
);
for (const [name, target] of Object.entries(webhooks)) console.info(`  ${name} webhooks → ${target.url}`);

const shutdown = () => {
  void running.close().then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
