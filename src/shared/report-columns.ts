/**
 * Columns a custom report may ask for (docs/product.md#constants) and the ones it gets by default.
 * Server and client read the same lists, so the picker never offers a column the server refuses.
 */
export const COURSE_REPORT_COLUMNS = [
  'courseName',
  'category',
  'duration',
  'totalFee',
  'admissionFee',
  'installments',
  'createdAt',
  'updatedAt',
  'description',
] as const;
export type CourseReportColumn = (typeof COURSE_REPORT_COLUMNS)[number];
export const DEFAULT_COURSE_REPORT_COLUMNS: CourseReportColumn[] = ['courseName', 'category', 'totalFee'];

export const TREATMENT_REPORT_COLUMNS = [
  'treatmentName',
  'category',
  'duration',
  'price',
  'discountedPrice',
  'specialRequirements',
  'createdAt',
  'updatedAt',
  'description',
] as const;
export type TreatmentReportColumn = (typeof TREATMENT_REPORT_COLUMNS)[number];
export const DEFAULT_TREATMENT_REPORT_COLUMNS: TreatmentReportColumn[] = ['treatmentName', 'category', 'price'];

/** The user entity's reportable fields; the password never is one. */
export const USER_REPORT_COLUMNS = ['username', 'fullName', 'email', 'role', 'branch', 'phone', 'createdAt'] as const;
export type UserReportColumn = (typeof USER_REPORT_COLUMNS)[number];
/** A user report shows every reportable field unless it names its own. */
export const DEFAULT_USER_REPORT_COLUMNS: UserReportColumn[] = [...USER_REPORT_COLUMNS];

export const REPORT_COLUMN_LABELS: Record<CourseReportColumn | TreatmentReportColumn | UserReportColumn, string> = {
  courseName: 'Course Name',
  treatmentName: 'Treatment Name',
  category: 'Category',
  duration: 'Duration',
  totalFee: 'Total Fee (Rs.)',
  admissionFee: 'Admission Fee (Rs.)',
  installments: 'Installments',
  price: 'Price (Rs.)',
  discountedPrice: 'Discounted Price (Rs.)',
  specialRequirements: 'Special Requirements',
  createdAt: 'Created At',
  updatedAt: 'Updated At',
  description: 'Description',
  username: 'Username',
  fullName: 'Full Name',
  email: 'Email',
  role: 'Role',
  branch: 'Branch',
  phone: 'Phone',
};

export type ReportFormat = 'xlsx' | 'pdf' | 'json';

/** Downloads are saved under these names (docs/product.md#rest-paths); `{date}` is YYYY-MM-DD. */
export function reportFileName(base: string, date: string, format: ReportFormat): string {
  return `${base}_${date}.${format}`;
}
