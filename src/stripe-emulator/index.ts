import { Emulator, type Logger } from "./emulator.js";
import { buildServer } from "./server.js";
import type { WebhookEndpoints } from "./webhooks/deliver.js";

export type { WebhookEndpoints } from "./webhooks/deliver.js";

export interface StripeEmulatorOptions {
  /** 0 picks a free port; default 12111. */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** JSON file the state is kept in across restarts; undefined keeps it in memory only. */
  stateFile?: string;
  /** Base URL of the hosted pages; default http://{host}:{port}. */
  publicUrl?: string;
  webhooks?: WebhookEndpoints;
  logger?: Logger;
}

export interface RunningStripeEmulator {
  url: string;
  port: number;
  host: string;
  /** The app may only know its own URL after it listens. */
  configureWebhooks(endpoints: WebhookEndpoints): void;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 12111;

const consoleLogger: Logger = {
  info: (msg) => console.info(msg),
  warn: (msg) => console.warn(msg),
  error: (msg) => console.error(msg),
};

export async function startStripeEmulator(
  options: StripeEmulatorOptions = {},
): Promise<RunningStripeEmulator> {
  const host = options.host ?? "127.0.0.1";
  const emulator = new Emulator(options.stateFile, options.logger ?? consoleLogger, options.webhooks ?? {});
  const app = buildServer(emulator);
  await app.listen({ port: options.port ?? DEFAULT_PORT, host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? DEFAULT_PORT);
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  emulator.publicUrl = (options.publicUrl ?? url).replace(/\/$/, "");
  emulator.start();
  return {
    url,
    port,
    host,
    configureWebhooks: (endpoints) => emulator.webhooks.configure(endpoints),
    close: async () => {
      emulator.stop();
      await app.close();
      await emulator.webhooks.close();
      emulator.store.close();
    },
  };
}
