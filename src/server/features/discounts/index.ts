/**
 * What the discounts room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */

export type { CodeTry } from "./code-tries";
export { allowCodeTry, allowedCodeTry, CODE_TRY_LIMIT_MESSAGE } from "./code-tries";
export { countPaidCodeUse, holdCodeUse, releaseCodeUse } from "./code-uses";
export type { DiscountEvaluation } from "./evaluate-discount-code";
export { evaluateDiscountCode, priceWithCode } from "./evaluate-discount-code";
export { discountsFeature } from "./feature";
