export {
  type BusinessBuyerCheck,
  checkBusinessBuyer,
  type VatCheckDeps,
  type VatRefusals,
  verifyVatNumber,
} from "./business-buyer";
export {
  type CheckoutTaxTerms,
  checkoutTaxParams,
  checkoutTaxTerms,
  createBusinessCustomer,
  productTaxCategory,
  waiverRequired,
  withdrawalWaiverText,
} from "./checkout-tax";
export { taxFeature } from "./feature";
export { readTaxSettingsRow } from "./store-tax-settings";
