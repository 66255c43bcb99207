/**
 * Writing the ledger inside one transaction (docs/payments.md): receipt numbers, applying and
 * reversing allocations, voids and the documented paid/unpaid toggles. Callers (the payments
 * service and the enrolment and booking toggles) lock the enrolment or booking first
 * (ledger-targets.ts) and split amounts with allocation.ts. Each subject has its file:
 *   ledger-record.ts   recording a payment with its receipt number and allocations
 *   ledger-void.ts     voiding a payment
 *   ledger-toggles.ts  the Mark-as-Paid / unpaid toggles
 *   ledger-items.ts    what each of them does to the items and the enrolment or booking
 */
export { writePayment, type NewPayment } from './ledger-record';
export { voidLockedPayment } from './ledger-void';
export { setItemPaid, settleItem, unsettleItem } from './ledger-toggles';
