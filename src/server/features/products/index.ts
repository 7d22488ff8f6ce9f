/**
 * What the products room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { createProduct, type ProductDeps } from "./create-product";
export { productsFeature } from "./feature";
export { listSellerProducts } from "./list-seller-products";
export { productRows } from "./product-files";
export { productInCurrency, tierInCurrency } from "./product-prices";
export { toPublicProduct } from "./product-shapes";
export { getPublicProduct, productUnavailable, storeMoved, storeUnavailable } from "./public-product";
export { getSellerProduct } from "./seller-product";
