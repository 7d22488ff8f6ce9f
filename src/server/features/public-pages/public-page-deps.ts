import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import type { Auth } from "../auth";
import type { CheckoutRouteDeps } from "../checkout";
import type { DownloadDeps, resendDownloadLink } from "../downloads";
import type { FulfilmentDeps } from "../orders";
import type { PublicPageAssets } from "./page-assets";

export interface PublicPageDeps {
  db: Database;
  auth: Auth;
  appUrl: string;
  assets: PublicPageAssets;
  /** Drops kept pages when a seller's data changes, on any instance. */
  events: EventBus;
  checkout: CheckoutRouteDeps;
  resend: Parameters<typeof resendDownloadLink>[0];
  /** The success page's order lookup and the download page's downloads. */
  buyer: FulfilmentDeps & DownloadDeps & { events: EventBus };
  now: () => Date;
}

export type ProductRoute = { Params: { productId: string } };
