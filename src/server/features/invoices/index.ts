/**
 * What the invoices room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { getApiInvoice, invoiceRefsOfOrders, listApiInvoices } from "./api-invoices";
export { documentPdf, sellerDocument } from "./documents";
export { invoicesFeature } from "./feature";
export { invoicesStep } from "./issue-invoice";
export { sendPdf } from "./send-pdf";
