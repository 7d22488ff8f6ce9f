/**
 * What the orders room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { libraryPath, libraryToken, readDownloadToken } from "./buyer-links";
export type { PurchaseFileRow, PurchaseRow } from "./buyer-purchase";
export { downloadBlocker, purchaseQuery, toBuyerPurchase } from "./buyer-purchase";
export type { CheckoutRef, SettleDeps } from "./checkout-session";
export { readCheckoutSession, settleCheckout } from "./checkout-session";
export { freshLinkEmail, refundEmail } from "./emails";
export { ordersFeature } from "./feature";
export type { FulfilmentDeps } from "./fulfil-checkout";
export { completeCheckout } from "./fulfil-checkout";
export { emailOfLibraryLink } from "./library";
export { lookupSuccessOrder, sellerOfCheckoutSession } from "./lookup-by-session";
export { invoiceMoneyOf, type OrderMoney, paidAsIs } from "./order-money";
export { ORDER_TAX_COLUMNS, orderTaxView } from "./order-tax-view";
export { downloadsAllowed, resetDownloads, saleDisputeOf, saleFileCount } from "./sales";
export { salesTotalsQuery } from "./sales-totals";
export type { AcceptedWaiver, OrderTaxColumns, RecordedBuyer } from "./session-tax";
export { invoiceTaxRateId, orderTaxOfInvoice } from "./session-tax";
export { closeCheckout } from "./settle-checkouts";
export { takeUnit } from "./stock";
