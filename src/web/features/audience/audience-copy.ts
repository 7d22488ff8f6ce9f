import { countOf, plural } from "../../../contracts/plural";

export const buyersLabel = (count: number) => countOf(count, "buyer");
export const customersLabel = (count: number) => countOf(count, "customer");

/** The product edit page's update card, once the product has buyers. */
export const updateEmailReach = (buyers: number) =>
  `An update email reaches the ${buyersLabel(buyers)} who ${plural(buyers, "has", "have")} this product, with a link to their library for the new files.`;
