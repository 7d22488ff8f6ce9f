/**
 * What the products room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { productsFeature } from "./feature";
export { listSellerProducts } from "./list-seller-products";
export { productRows } from "./product-files";
export { productInCurrency } from "./product-prices";
export { toPublicProduct } from "./product-shapes";
export { getPublicProduct } from "./public-product";
export { getSellerProduct } from "./seller-product";
