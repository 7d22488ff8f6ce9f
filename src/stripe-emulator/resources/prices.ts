import type Stripe from "stripe";
import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import { paginate } from "../lists.js";
import { buildPrice, buildProduct } from "../objects/price.js";
import {
  boolean,
  emptyable,
  integer,
  list,
  listParams,
  mergeMetadata,
  metadata,
  nonNegativeInteger,
  parseParams,
  requiredText,
  text,
} from "../params.js";
import type { Scope } from "../state/types.js";
import { requireSupportedCurrency } from "./country-specs.js";

export const productDataSchema = z.strictObject({
  name: requiredText(),
  description: text().optional(),
  metadata: metadata().optional(),
  images: z.array(z.string()).optional(),
  tax_code: text().optional(),
  unit_label: text().optional(),
});

export const recurringSchema = z.strictObject({
  interval: z.enum(["day", "week", "month", "year"]),
  interval_count: integer().optional(),
});

const currency = () =>
  z
    .string()
    .regex(/^[a-zA-Z]{3}$/)
    .transform((value) => value.toLowerCase());

/** `price_data` as Checkout takes it. */
export const priceDataSchema = z.strictObject({
  currency: currency(),
  unit_amount: nonNegativeInteger(),
  product: text().optional(),
  product_data: productDataSchema.optional(),
  recurring: recurringSchema.optional(),
  tax_behavior: z.enum(["exclusive", "inclusive", "unspecified"]).optional(),
});

const createSchema = priceDataSchema.extend({
  lookup_key: text().optional(),
  transfer_lookup_key: boolean().optional(),
  nickname: text().optional(),
  metadata: metadata().optional(),
  active: boolean().optional(),
});

const listSchema = z.strictObject({
  ...listParams,
  active: boolean().optional(),
  currency: currency().optional(),
  product: text().optional(),
  type: z.enum(["one_time", "recurring"]).optional(),
  lookup_keys: list(z.string()).optional(),
});

const productCreateSchema = productDataSchema.extend({ active: boolean().optional(), id: text().optional() });
const productListSchema = z.strictObject({ ...listParams, active: boolean().optional() });

type PriceInput = z.output<typeof priceDataSchema> & {
  lookup_key?: string | undefined;
  nickname?: string | undefined;
  metadata?: Stripe.Metadata | "" | undefined;
  active?: boolean | undefined;
};

/** Creates a price (and its product from `product_data`), as `prices.create` and Checkout's `price_data` do. */
export function createPrice(
  emulator: Emulator,
  account: Scope,
  input: PriceInput,
  productParam = "product",
): Stripe.Price {
  const { store } = emulator;
  const now = emulator.now();
  let productId = input.product;
  if (productId) {
    store.get("products", account, productId, "product", productParam);
  } else if (input.product_data) {
    const product = buildProduct(newId("prod"), now, {
      name: input.product_data.name,
      description: input.product_data.description ?? null,
      metadata: mergeMetadata({}, input.product_data.metadata),
      active: true,
    });
    if (input.product_data.tax_code) product.tax_code = input.product_data.tax_code;
    store.put("products", account, product);
    productId = product.id;
  } else {
    throw invalidRequest(
      "You must specify either `product` or `product_data` when creating a price.",
      productParam,
      "parameter_missing",
    );
  }
  const price = buildPrice(newId("price"), now, {
    product: productId,
    currency: input.currency,
    unitAmount: input.unit_amount,
    recurring: input.recurring
      ? { interval: input.recurring.interval, intervalCount: input.recurring.interval_count ?? 1 }
      : null,
    lookupKey: input.lookup_key ?? null,
    nickname: input.nickname ?? null,
    metadata: mergeMetadata({}, input.metadata),
    active: input.active ?? true,
  });
  if (input.tax_behavior) price.tax_behavior = input.tax_behavior;
  store.put("prices", account, price);
  return price;
}

export function registerPrices(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;

  routes.post("/v1/prices", ({ account, params }) => {
    const input = parseParams(createSchema, params);
    requireSupportedCurrency(emulator, account, input.currency, "currency");
    if (input.lookup_key) {
      const holder = store.list("prices", account).find((price) => price.lookup_key === input.lookup_key);
      if (holder && !input.transfer_lookup_key) {
        throw invalidRequest(
          `A price (\`${holder.id}\`) already uses that lookup key.`,
          "lookup_key",
          "lookup_key_already_exists",
        );
      }
      if (holder) {
        holder.lookup_key = null;
        store.put("prices", account, holder);
      }
    }
    return createPrice(emulator, account, input);
  });

  routes.get("/v1/prices/:id", ({ account, id }) => store.get("prices", account, id, "price"));

  routes.post("/v1/prices/:id", ({ account, id, params }) => {
    const price = store.get("prices", account, id, "price");
    const input = parseParams(
      z.strictObject({
        active: boolean().optional(),
        metadata: metadata().optional(),
        nickname: emptyable().optional(),
      }),
      params,
    );
    if (input.active !== undefined) price.active = input.active;
    if (input.nickname !== undefined) price.nickname = input.nickname;
    price.metadata = mergeMetadata(price.metadata, input.metadata);
    store.put("prices", account, price);
    return price;
  });

  routes.get("/v1/prices", ({ account, params }) => {
    const input = parseParams(listSchema, params);
    const prices = store
      .list("prices", account)
      .filter(
        (price) =>
          (input.active === undefined || price.active === input.active) &&
          (input.currency === undefined || price.currency === input.currency) &&
          (input.product === undefined || price.product === input.product) &&
          (input.type === undefined || price.type === input.type) &&
          (input.lookup_keys === undefined ||
            (price.lookup_key !== null && input.lookup_keys.includes(price.lookup_key))),
      );
    return paginate(prices, input, "/v1/prices", "price");
  });

  routes.post("/v1/products", ({ account, params }) => {
    const input = parseParams(productCreateSchema, params);
    const product = buildProduct(input.id ?? newId("prod"), emulator.now(), {
      name: input.name,
      description: input.description ?? null,
      metadata: mergeMetadata({}, input.metadata),
      active: input.active ?? true,
    });
    store.put("products", account, product);
    return product;
  });

  routes.get("/v1/products/:id", ({ account, id }) => store.get("products", account, id, "product"));

  routes.get("/v1/products", ({ account, params }) => {
    const input = parseParams(productListSchema, params);
    const products = store
      .list("products", account)
      .filter((product) => input.active === undefined || product.active === input.active);
    return paginate(products, input, "/v1/products", "product");
  });
}
