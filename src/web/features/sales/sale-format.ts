import { format } from "date-fns";

/** SPEC section 7: sales dates read 'MMM dd, yyyy HH:mm', in the seller's own time zone. */
export const formatSaleDate = (iso: string): string => format(new Date(iso), "MMM dd, yyyy HH:mm");
