// A customer's billing terms, kept as user attributes under Tarkan's key names (the billing
// feature reads them; the user editor writes them). They are privileges: a user never sets
// their own price or trust unlock (resellers.ts lists them with the other privileges).
/** Billing settings of one customer (tarkan-reference §6.3; "Disccount" is their spelling). */
export const USER_BILLING_KEYS = {
  enabled: 'tarkan.enableBilling',
  taxId: 'tarkan.billingCpfCnpj',
  /** 1/0 */
  trustUnlock: 'tarkan.billingTrustUnlock',
  trustUnlockDays: 'tarkan.billingTrustUnlockDays',
  /** 1/0: automatic suspension */
  suspension: 'tarkan.billingSuspension',
  suspensionDays: 'tarkan.billingSuspensionDays',
  description: 'tarkan.billingDescription',
  /** Day of the month of the first due date. */
  dueDay: 'tarkan.billingDate',
  /** Whole cents. */
  price: 'tarkan.billingPrice',
  fine: 'tarkan.billingFine',
  fineMode: 'tarkan.billingFineMode',
  /** Percent a month. */
  interest: 'tarkan.billingInterest',
  discount: 'tarkan.billingDisccount',
  discountMode: 'tarkan.billingDisccountMode',
  discountDays: 'tarkan.billingDisccountDays',
} as const;
