import { z } from 'zod';
import { zIntOut, zMoneyOut, zPageOf, zRecordOut } from '@shared/schemas/output';

/** docs/product.md#records-and-their-fields Course; money as decimal numbers. */
export const ZCourse = zRecordOut({
  courseName: z.string(),
  duration: z.string(),
  totalFee: zMoneyOut,
  installments: zIntOut,
  category: z.string(),
  admissionFee: zMoneyOut,
  currency: z.string(),
  description: z.string().nullable(),
});
export type TCourse = z.infer<typeof ZCourse>;

export const ZCoursePage = zPageOf(ZCourse);
export const ZCourseList = z.array(ZCourse);

/** The enrol form's dropdown: id, name and the fee facts it shows. */
export const ZCourseOption = z.object({
  _id: z.string(),
  courseName: z.string(),
  totalFee: zMoneyOut,
  admissionFee: zMoneyOut,
  installments: zIntOut,
  currency: z.string(),
});
export type TCourseOption = z.infer<typeof ZCourseOption>;
