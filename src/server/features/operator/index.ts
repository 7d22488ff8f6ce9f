/**
 * What the operator room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Rooms with operator routes guard them with requireOperator and
 * record what operators do with recordAudit, in the same transaction as the change.
 */
export { type Actor, type AuditRecord, recordAudit } from "./audit-log";
export { operatorFeature } from "./feature";
export { type OperatorAccessDeps, requireOperator } from "./operator-access";
