/**
 * What the store-currency room offers the other features: nothing else of it may be imported from
 * outside (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { storeCurrencyFeature } from "./feature";
export { adaptivePricingFor, assertOtherCurrenciesAccepted, storeCurrencyOf } from "./store-currency";
