import type Stripe from "stripe";
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

/**
 * A checkout that ended unpaid, as Stripe answered it (read back on the checkout's account): told once,
 * by the call that ended it (the expiry event, the janitor, Buy Now replacing it), in its transaction.
 */
export interface ExpiredCheckout {
  checkoutId: string;
  sellerId: string;
  session: Stripe.Checkout.Session;
  at: Date;
}

/** One feature's part in what an order's creation or refund also changes, in the order's transaction. */
export interface OrderChangeStep {
  created?(trx: Database, order: CreatedOrder): Promise<void>;
  /**
   * An order made on another platform, brought here by a store import (docs/store-import.md): the steps
   * that give it its place in the store (totals, customers, its key, stamped copies) and none that
   * speak of a new sale (webhooks, invoices, tax report, analytics).
   */
  imported?(trx: Database, order: CreatedOrder): Promise<void>;
  /** The same for a batch of imported orders at once, when the step can do it in fewer statements. */
  importedMany?(trx: Database, orders: readonly CreatedOrder[]): Promise<void>;
  refunded?(trx: Database, order: RefundedOrder): Promise<void>;
  /**
   * The buyer's bank decided a dispute of a completed order for the buyer: the money is gone as surely as
   * by a refund, so the steps that count money take the sale back (totals, customers, analytics). The
   * order stays `completed` with its dispute `lost`; no refund, credit note or webhook of a refund follows.
   */
  disputeLost?(trx: Database, order: RefundedOrder): Promise<void>;
  /** A checkout ended without a sale (checkout recovery schedules its email here). */
  checkoutExpired?(trx: Database, checkout: ExpiredCheckout): Promise<void>;
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

  /** A batch of imported orders (a store import's 200): each step at once when it can, else order by order. */
  async imported(trx: Database, orders: readonly CreatedOrder[]): Promise<void> {
    if (orders.length === 0) return;
    for (const step of this.steps) {
      if (step.importedMany) await step.importedMany(trx, orders);
      else if (step.imported) for (const order of orders) await step.imported(trx, order);
    }
  }

  async refunded(trx: Database, order: RefundedOrder): Promise<void> {
    for (const step of this.steps) await step.refunded?.(trx, order);
  }

  async disputeLost(trx: Database, order: RefundedOrder): Promise<void> {
    for (const step of this.steps) await step.disputeLost?.(trx, order);
  }

  async checkoutExpired(trx: Database, checkout: ExpiredCheckout): Promise<void> {
    for (const step of this.steps) await step.checkoutExpired?.(trx, checkout);
  }
}
