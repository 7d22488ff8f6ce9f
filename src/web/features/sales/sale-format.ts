import { format } from "date-fns";

/** product rules, The calls it makes: sales dates read 'MMM dd, yyyy HH:mm', in the seller's own time zone. */
export const formatSaleDate = (iso: string): string => format(new Date(iso), "MMM dd, yyyy HH:mm");
