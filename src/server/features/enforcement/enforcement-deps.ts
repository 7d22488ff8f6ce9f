import type { EventBus } from "../../adapters/events/event-bus";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";

/** What enforcement's use cases need: the database, the events that drop public pages, the outbox. */
export interface EnforcementDeps {
  db: Database;
  events: EventBus;
  outbox: Outbox;
  /** For the links in the seller's emails. */
  appUrl: string;
}
