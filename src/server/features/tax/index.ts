export { type BusinessBuyerCheck, checkBusinessBuyer } from "./business-buyer";
export {
  type CheckoutTaxTerms,
  checkoutTaxParams,
  checkoutTaxTerms,
  createBusinessCustomer,
  productTaxCategory,
  waiverRequired,
} from "./checkout-tax";
export { taxFeature } from "./feature";
export { readTaxSettingsRow } from "./store-tax-settings";
