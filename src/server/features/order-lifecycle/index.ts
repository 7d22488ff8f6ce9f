/**
 * What the order-lifecycle room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export type {
  CreatedOrder,
  ExpiredCheckout,
  OrderChangeStep,
  OrderChanges,
  RefundedOrder,
} from "./order-changes";
