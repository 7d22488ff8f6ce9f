import type { Database } from "../../db/database";

/** An order just created, as the steps of OrderChanges see it. */
export interface CreatedOrder {
  orderId: string;
  sellerId: string;
  productId: string | null;
  checkoutId: string;
  email: string;
  /** In the store currency (the order's settlement_cents): what every total adds up. */
  amountCents: number;
  /** False when the unit could not be delivered and the order was refunded at once. */
  delivered: boolean;
  at: Date;
}

/** A completed order just refunded (by the seller here, or in Stripe's dashboard). */
export interface RefundedOrder {
  orderId: string;
  sellerId: string;
  productId: string | null;
  email: string;
  /** In the store currency (the order's settlement_cents). */
  amountCents: number;
  at: Date;
}

/** One feature's part in what an order's creation or refund also changes, in the order's transaction. */
export interface OrderChangeStep {
  created?(trx: Database, order: CreatedOrder): Promise<void>;
  refunded?(trx: Database, order: RefundedOrder): Promise<void>;
}

/**
 * What else changes, in the same transaction, when an order is created or refunded: the seller's
 * totals, and every feature that keeps something per sale (roll-ups, keys, stamps, queued deliveries).
 * Each feature exports its step; app.ts lists them, in order, so the order lifecycle stays one list to
 * read, no caller of fulfilment or refunds knows about them, and the orders feature imports none of them.
 */
export class OrderChanges {
  constructor(private readonly steps: readonly OrderChangeStep[]) {}

  async created(trx: Database, order: CreatedOrder): Promise<void> {
    for (const step of this.steps) await step.created?.(trx, order);
  }

  async refunded(trx: Database, order: RefundedOrder): Promise<void> {
    for (const step of this.steps) await step.refunded?.(trx, order);
  }
}
