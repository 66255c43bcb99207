import { z } from 'zod';
import { zInstantOut, zIntOut, zMoneyOut, zPageOf } from '@shared/schemas/output';

/** docs/product.md#records-and-their-fields Treatment; money as decimal numbers. */
export const ZTreatment = z.object({
  _id: z.string(),
  treatmentName: z.string(),
  localPrice: zMoneyOut,
  foreignPrice: zMoneyOut,
  maxSessions: zIntOut,
  installments: zIntOut,
  duration: z.object({ weeks: zIntOut, days: zIntOut, months: zIntOut }),
  category: z.string().nullable(),
  description: z.string().nullable(),
  createdAt: zInstantOut,
  updatedAt: zInstantOut,
});
export type TTreatment = z.infer<typeof ZTreatment>;

export const ZTreatmentPage = zPageOf(ZTreatment);
export const ZTreatmentList = z.array(ZTreatment);
