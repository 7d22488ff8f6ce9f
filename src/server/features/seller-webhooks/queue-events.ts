import { randomBytes } from "node:crypto";
import type { ApiInvoice } from "../../../contracts/seller-api";
import type {
  MembershipWebhookEventType,
  SaleDisputeWebhookEventType,
  WebhookEventType,
} from "../../../contracts/webhooks";
import { type Database, inTransaction } from "../../db/database";
import type { OrderChangeStep } from "../order-lifecycle";
import { ORDER_TAX_COLUMNS, orderTaxView } from "../orders";
import { enqueueDelivery } from "./deliver-webhooks";

/** The webhook-id of a delivery: the same on every attempt, so receivers can drop duplicates. */
export const newMessageId = () => `msg_${randomBytes(16).toString("base64url")}`;

/** The body every delivery carries (docs/webhooks.md). `test` marks an example sent from the settings. */
export function webhookBody(
  type: WebhookEventType,
  data: Record<string, unknown>,
  at: Date,
  test = false,
): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), ...(test ? { test: true } : {}), data });
}

interface SubscribedEndpoint {
  id: string;
  events: string[];
}

function subscribedEndpoints(trx: Database, sellerId: string): Promise<SubscribedEndpoint[]> {
  return trx
    .selectFrom("webhook_endpoints")
    .select(["id", "events"])
    .where("seller_id", "=", sellerId)
    .execute();
}

/** Queues one delivery per endpoint, inside the caller's transaction: the event exists iff the change does. */
export async function queueDeliveries(
  trx: Database,
  sellerId: string,
  endpointIds: string[],
  type: WebhookEventType,
  body: string,
  now: Date,
): Promise<string[]> {
  if (endpointIds.length === 0) return [];
  const rows = endpointIds.map((endpointId) => ({
    id: newMessageId(),
    endpoint_id: endpointId,
    seller_id: sellerId,
    event_type: type,
    payload: body,
    round_started_at: now,
    next_attempt_at: now,
    created_at: now,
  }));
  await inTransaction(trx, async (db) => {
    await db.insertInto("webhook_deliveries").values(rows).execute();
    for (const row of rows) await enqueueDelivery(db, row.id);
  });
  return rows.map((row) => row.id);
}

async function queueEvent(
  trx: Database,
  sellerId: string,
  endpoints: SubscribedEndpoint[],
  type: WebhookEventType,
  data: Record<string, unknown>,
  now: Date,
): Promise<void> {
  const ids = endpoints.filter((endpoint) => endpoint.events.includes(type)).map((endpoint) => endpoint.id);
  if (ids.length > 0) await queueDeliveries(trx, sellerId, ids, type, webhookBody(type, data, now), now);
}

/** A sale's latest dispute as the webhooks carry it (docs/webhooks.md); null when none. */
async function saleDisputeData(trx: Database, disputeId: string | null) {
  if (!disputeId) return null;
  const dispute = await trx
    .selectFrom("disputes")
    .select(["id", "status", "reason", "amount_cents", "currency", "due_by", "submitted_at", "closed_at"])
    .where("id", "=", disputeId)
    .executeTakeFirst();
  return dispute
    ? {
        id: dispute.id,
        status: dispute.status,
        reason: dispute.reason,
        amount: dispute.amount_cents,
        currency: dispute.currency,
        due_by: dispute.due_by?.toISOString() ?? null,
        submitted_at: dispute.submitted_at?.toISOString() ?? null,
        closed_at: dispute.closed_at?.toISOString() ?? null,
      }
    : null;
}

/** What a sale looks like in the sale.* events. */
async function saleData(trx: Database, orderId: string) {
  const order = await trx
    .selectFrom("orders")
    .select([
      "id",
      "product_id",
      "product_title",
      "customer_email",
      "amount_cents",
      "currency",
      "settlement_cents",
      "settlement_currency",
      "discount_code",
      "status",
      "created_at",
      "refunded_at",
      "dispute_id",
      "dispute_status",
      ...ORDER_TAX_COLUMNS,
    ])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  // Stripe Tax's answer, inside `amount`; null for a sale the store collected no tax on.
  const view = orderTaxView(order);
  const tax = view && {
    amount: view.taxCents,
    rate: view.taxRate,
    type: view.taxType,
    jurisdiction: view.taxJurisdiction,
    reason: view.taxabilityReason,
    country: view.buyerCountry,
    state: view.buyerState,
    reverse_charge: view.reverseCharge,
  };
  return {
    order_id: order.id,
    product_id: order.product_id,
    product_title: order.product_title,
    email: order.customer_email,
    amount: order.amount_cents,
    currency: order.currency,
    // The same sale in the store currency, as Stripe settled it (docs/money.md).
    settlement_amount: order.settlement_cents,
    settlement_currency: order.settlement_currency,
    discount_code: order.discount_code,
    status: order.status,
    created_at: order.created_at.toISOString(),
    refunded_at: order.refunded_at?.toISOString() ?? null,
    tax,
    // "open" while disputed (downloads and license key suspended), then "won" or "lost"; null: never disputed.
    dispute_status: order.dispute_status,
    dispute: await saleDisputeData(trx, order.dispute_id),
  };
}

/**
 * A limited product is sold out when a paid order leaves no unit and no open checkout holds one (a
 * held unit may still come back). The product row is locked first, so of two last sales paid at once
 * the second to commit sees the first as paid and is the one that says so.
 */
async function soldOutProduct(trx: Database, productId: string) {
  const product = await trx
    .selectFrom("products")
    .select(["id", "title", "inventory_type", "quantity_available"])
    .where("id", "=", productId)
    .forUpdate()
    .executeTakeFirst();
  if (product?.inventory_type !== "limited" || product.quantity_available !== 0) return undefined;
  const held = await trx
    .selectFrom("checkouts")
    .select("id")
    .where("product_id", "=", productId)
    .where("state", "=", "open")
    .where("reservation", "=", "held")
    .limit(1)
    .executeTakeFirst();
  return held ? undefined : product;
}

/** When an order is created (OrderChanges): sale.completed for a delivered order, and product.sold_out when it took the last unit. */
export async function queueSaleCompletedWebhooks(
  trx: Database,
  order: { orderId: string; sellerId: string; productId: string | null; delivered: boolean; at: Date },
): Promise<void> {
  if (!order.delivered) return;
  const endpoints = await subscribedEndpoints(trx, order.sellerId);
  if (endpoints.length === 0) return;
  await queueEvent(
    trx,
    order.sellerId,
    endpoints,
    "sale.completed",
    await saleData(trx, order.orderId),
    order.at,
  );
  const wantsSoldOut = endpoints.some((endpoint) => endpoint.events.includes("product.sold_out"));
  const product = wantsSoldOut && order.productId ? await soldOutProduct(trx, order.productId) : undefined;
  if (product) {
    const data = {
      product_id: product.id,
      product_title: product.title,
      sold_out_at: order.at.toISOString(),
    };
    await queueEvent(trx, order.sellerId, endpoints, "product.sold_out", data, order.at);
  }
}

/** When an order is refunded (OrderChanges): sale.refunded. */
export async function queueSaleRefundedWebhooks(
  trx: Database,
  order: { orderId: string; sellerId: string; at: Date },
): Promise<void> {
  const endpoints = await subscribedEndpoints(trx, order.sellerId);
  if (!endpoints.some((endpoint) => endpoint.events.includes("sale.refunded"))) return;
  await queueEvent(
    trx,
    order.sellerId,
    endpoints,
    "sale.refunded",
    await saleData(trx, order.orderId),
    order.at,
  );
}

/** A dispute of a one-time sale opened (sale.disputed) or closed (sale.dispute_closed): the sale with its dispute. */
export async function queueSaleDisputeWebhooks(
  trx: Database,
  change: { orderId: string; sellerId: string; at: Date; type: SaleDisputeWebhookEventType },
): Promise<void> {
  const endpoints = await subscribedEndpoints(trx, change.sellerId);
  if (!endpoints.some((endpoint) => endpoint.events.includes(change.type))) return;
  await queueEvent(
    trx,
    change.sellerId,
    endpoints,
    change.type,
    await saleData(trx, change.orderId),
    change.at,
  );
}

/** What a membership looks like in the membership.* events (docs/webhooks.md). */
export interface MembershipEventData {
  membership_id: string;
  product_id: string | null;
  product_title: string;
  tier_id: string | null;
  tier_name: string;
  email: string;
  interval: "month" | "year";
  amount: number;
  currency: string;
  status: string;
  cancel_at_period_end: boolean;
  current_period_end: string;
  /** membership.renewed: the period paid, and the sale it is (its order id). */
  order_id?: string;
}

/** A membership's event (memberships feature), queued in the caller's transaction for each endpoint that wants it. */
export async function queueMembershipWebhooks(
  trx: Database,
  sellerId: string,
  type: MembershipWebhookEventType,
  data: MembershipEventData,
  at: Date,
): Promise<void> {
  const endpoints = await subscribedEndpoints(trx, sellerId);
  if (!endpoints.some((endpoint) => endpoint.events.includes(type))) return;
  await queueEvent(trx, sellerId, endpoints, type, { ...data }, at);
}

/**
 * invoice.issued (invoices feature): a new invoice, credit note or corrected version, queued in the
 * caller's transaction for each endpoint that wants it. The data is the document exactly as GET
 * /api/v1/invoices/{id} answers it, built only when an endpoint wants it.
 */
export async function queueInvoiceWebhooks(
  trx: Database,
  sellerId: string,
  invoice: () => ApiInvoice,
  at: Date,
): Promise<void> {
  const endpoints = await subscribedEndpoints(trx, sellerId);
  if (!endpoints.some((endpoint) => endpoint.events.includes("invoice.issued"))) return;
  await queueEvent(trx, sellerId, endpoints, "invoice.issued", snakeCaseKeys(invoice()), at);
}

/** netCents → net_cents, at every depth: the API's camelCase document in the webhooks' snake_case. */
export function snakeCaseKeys<T>(value: T): Record<string, unknown> {
  const convert = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(convert);
    if (item === null || typeof item !== "object") return item;
    return Object.fromEntries(
      Object.entries(item).map(([key, inner]) => [
        key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        convert(inner),
      ]),
    );
  };
  return convert(value) as Record<string, unknown>;
}

/** An invoice, made up, for the example event. */
function exampleInvoice(now: Date): ApiInvoice {
  return {
    id: "inv_example",
    kind: "invoice",
    number: "INV-000042",
    version: 1,
    issuedAt: now.toISOString(),
    paidAt: now.toISOString(),
    orderId: "ord_example",
    creditedInvoiceId: null,
    seller: {
      name: "Example Studio",
      businessName: null,
      address: ["1 Example Street", "10115 Berlin", "Germany"],
      country: null,
      taxId: "DE123456789",
      taxIdCheckedAt: null,
      email: null,
    },
    buyer: {
      name: "Example Buyer",
      businessName: null,
      address: ["2 Sample Road", "75001 Paris", "France"],
      country: "FR",
      taxId: null,
      taxIdCheckedAt: null,
      email: "buyer@example.com",
    },
    lines: [
      {
        description: "Example product",
        periodStart: null,
        periodEnd: null,
        quantity: 1,
        netCents: 1666,
        taxCents: 333,
        totalCents: 1999,
        taxLabel: "VAT 20% (France)",
      },
    ],
    currency: "usd",
    netCents: 1666,
    taxCents: 333,
    totalCents: 1999,
    reverseCharge: false,
    taxNote: null,
    pdfUrl: "https://example.com/api/v1/invoices/inv_example/pdf",
  };
}

/** Sample data of each event, for the "send example event" button. */
export function exampleEventData(type: WebhookEventType, now: Date): Record<string, unknown> {
  const sale = {
    order_id: "ord_example",
    product_id: "prod_example",
    product_title: "Example product",
    email: "buyer@example.com",
    amount: 1999,
    currency: "usd",
    settlement_amount: 1999,
    settlement_currency: "usd",
    discount_code: null,
    status: type === "sale.refunded" ? "refunded" : "completed",
    created_at: now.toISOString(),
    refunded_at: type === "sale.refunded" ? now.toISOString() : null,
    dispute_status: type === "sale.disputed" ? "open" : type === "sale.dispute_closed" ? "won" : null,
    dispute:
      type === "sale.disputed" || type === "sale.dispute_closed"
        ? {
            id: "dp_example",
            status: type === "sale.disputed" ? "needs_response" : "won",
            reason: "fraudulent",
            amount: 1999,
            currency: "usd",
            due_by: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
            submitted_at: type === "sale.dispute_closed" ? now.toISOString() : null,
            closed_at: type === "sale.dispute_closed" ? now.toISOString() : null,
          }
        : null,
  };
  if (type === "invoice.issued") return snakeCaseKeys(exampleInvoice(now));
  if (type === "product.sold_out") {
    return { product_id: "prod_example", product_title: "Example product", sold_out_at: now.toISOString() };
  }
  if (type.startsWith("membership.")) {
    const example: MembershipEventData = {
      membership_id: "mem_example",
      product_id: "prod_example",
      product_title: "Example membership",
      tier_id: "tier_example",
      tier_name: "Supporter",
      email: "member@example.com",
      interval: "month",
      amount: 500,
      currency: "usd",
      status:
        type === "membership.ended"
          ? "canceled"
          : type === "membership.payment_failed"
            ? "past_due"
            : "active",
      cancel_at_period_end: type === "membership.canceled",
      current_period_end: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      ...(type === "membership.renewed" ? { order_id: "ord_example" } : {}),
    };
    return { ...example };
  }
  return sale;
}

/** Sales and refunds are sent to the seller's endpoints (OrderChanges). */
export const sellerWebhooksStep: OrderChangeStep = {
  created: queueSaleCompletedWebhooks,
  refunded: queueSaleRefundedWebhooks,
};
