// Outcome sets several tables share.
import { NO, OK, SIGNED_OUT, type Expect } from '../roles.ts';

/** Writing one's own objects: every active account but readonly ones, visitors and QR drivers. */
export const OWN_WRITERS: Expect = {
  admin: OK, admin2: OK, reseller: OK, subReseller: OK, customer: OK, unrelated: OK, readonly: NO, deviceReadonly: OK,
  limitCommands: OK, shared: NO, driver: NO, ...SIGNED_OUT,
};

/** Writing one's own devices: as OWN_WRITERS, and not deviceReadonly accounts. */
export const OWN_DEVICE_WRITERS: Expect = { ...OWN_WRITERS, deviceReadonly: NO };

/** C's devices and groups: C, every manager above it, administrators. */
export const CUSTOMER_TREE: Expect = {
  admin: OK, admin2: OK, reseller: OK, subReseller: OK, customer: OK, unrelated: NO, readonly: NO, deviceReadonly: NO,
  limitCommands: NO, shared: NO, driver: NO, ...SIGNED_OUT,
};

/** C's own objects of the kinds reached by a direct link only: C and administrators. */
export const CUSTOMER_ONLY: Expect = { ...CUSTOMER_TREE, reseller: NO, subReseller: NO };

/** Who sees C's first vehicle: its tree, its readonly operator and the share visitor. */
export const SEE_CUSTOMER1: Expect = { ...CUSTOMER_TREE, readonly: OK, shared: OK };

export const ADMINS: Expect = { ...CUSTOMER_ONLY, customer: NO };
