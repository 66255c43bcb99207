/**
 * The statements the product runs for the measured paths, as its ORM renders them (read from
 * PostgreSQL's log with `log_statement = all`): every value a parameter, a page's size and offset
 * and a filter's value included. `npm run bench:http` captures both servers' SQL again on every run
 * and reports any difference, so a change in the product shows up there.
 */

const SESSION_COLUMNS = `"sessions"."id", "sessions"."user_id", "sessions"."created_at", "sessions"."last_used_at", "sessions"."expires_at", "users"."id", "users"."role", "users"."email", "users"."username", "users"."full_name", "users"."branch_id"`;
export const SESSION = `select ${SESSION_COLUMNS} from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" where "sessions"."id" = $1 limit $2`;
export const SESSION_TOUCH = `update "sessions" set "last_used_at" = $1, "expires_at" = $2 where "sessions"."id" = $3`;
export const SESSION_DELETE = `delete from "sessions" where "sessions"."id" = $1`;

const USER_COLUMNS = `"users"."id", "users"."username", "users"."full_name", "users"."email", "users"."role", "users"."phone", "users"."address", "users"."nic", "users"."date_of_birth", "users"."gender", "users"."emergency_contact_name", "users"."emergency_contact_relation", "users"."emergency_contact_phone", "users"."guardian_phone", "users"."image_file_id", "users"."created_at", "users"."updated_at", "branches"."id", "branches"."name", "branches"."location"`;
const USERS_FROM = `from "users" left join "branches" on "branches"."id" = "users"."branch_id" order by "users"."created_at" desc, "users"."id" asc`;
/** REST GET /api/users: newest first, capped at 10,000 rows. */
export const USERS_ALL = `select ${USER_COLUMNS} ${USERS_FROM} limit $1`;
/** A page without a search: a statement built once, its size and offset parameters. */
export const USERS_PAGE = `select ${USER_COLUMNS} ${USERS_FROM} limit $1 offset $2`;
export const USERS_COUNT = `select count(*) from "users"`;

/**
 * A record's children as one JSON array in its own row, as the product reads them
 * (docs/performance.md#children-in-the-records-statement): each child's values by position, a
 * timestamp as its milliseconds since 1970.
 */
const children = (table: string, owner: string, columns: string[], instants: string[], order: string) =>
  `(select coalesce(json_agg(json_build_array(${columns
    .map((c) => (instants.includes(c) ? `floor(extract(epoch from "${table}"."${c}") * 1000)` : `"${table}"."${c}"`))
    .join(', ')}) order by "${table}"."${order}"), '[]'::json) from "${table}" where "${table}".${owner})`;
const INSTALLMENT_CHILD = ['id', 'seq', 'amount_minor', 'due_date', 'amount_paid_minor', 'is_paid', 'paid_at'];
const ENROLLMENT_COLUMNS = `"enrollments"."id", "enrollments"."user_id", "enrollments"."course_id", "enrollments"."payment_type", "enrollments"."total_fee_minor", "enrollments"."admission_fee_minor", "enrollments"."currency", "enrollments"."admission_fee_paid", "enrollments"."admission_fee_paid_minor", "enrollments"."admission_fee_paid_at", "enrollments"."status", "enrollments"."completed_at", "enrollments"."display_status", "enrollments"."enrolled_on", "enrollments"."deleted_username", "enrollments"."deleted_email", "enrollments"."deleted_course_name", "enrollments"."created_at", "enrollments"."updated_at", "users"."id", "users"."username", "users"."email", "users"."full_name", "courses"."id", "courses"."course_name", "courses"."total_fee_minor", ${children('enrollment_installments', `"enrollment_id" = "enrollments"."id"`, INSTALLMENT_CHILD, ['paid_at'], 'seq')}`;
const ENROLLMENT_FROM = `from "enrollments" left join "users" on "users"."id" = "enrollments"."user_id" left join "courses" on "courses"."id" = "enrollments"."course_id"`;
const ENROLLMENT_ORDER = `order by "enrollments"."created_at" desc, "enrollments"."id" asc`;
/** Parameters: size, offset (a page without a search is a statement built once, offset included). */
export const ENROLLMENTS_PAGE = `select ${ENROLLMENT_COLUMNS} ${ENROLLMENT_FROM} ${ENROLLMENT_ORDER} limit $1 offset $2`;
export const ENROLLMENTS_COUNT = `select count(*) ${ENROLLMENT_FROM}`;
/** A display-status filter: the stored column (docs/performance.md#stored-display-status), its value the first parameter. */
const BY_DISPLAY_STATUS = `"enrollments"."display_status" = $1`;
/** Parameters: display status, size, offset. */
export const ENROLLMENTS_BY_STATUS_PAGE = `select ${ENROLLMENT_COLUMNS} ${ENROLLMENT_FROM} where ${BY_DISPLAY_STATUS} ${ENROLLMENT_ORDER} limit $2 offset $3`;
/** Parameters: display status. */
export const ENROLLMENTS_BY_STATUS_COUNT = `select count(*) ${ENROLLMENT_FROM} where ${BY_DISPLAY_STATUS}`;
export const ENROLLMENT_BY_ID = `select ${ENROLLMENT_COLUMNS} ${ENROLLMENT_FROM} where "enrollments"."id" = $1 limit $2`;

export const ENROLLMENT_STATISTICS = `select count(*), count(*) filter (where "status" = 'completed'), (select count(*) from "enrollment_installments" where "enrollment_installments"."is_paid" = false and "enrollment_installments"."due_date" < $1) from "enrollments"`;

// The instalment toggle's statements: bench/baseline/ledger.ts.

/**
 * Active with an unpaid instalment past due: overdue whatever is stored. The earliest unpaid due
 * date is the booking's own column (docs/performance.md#a-bookings-earliest-unpaid-due-date).
 */
const late = (todayParam: string) =>
  `("treatment_bookings"."status" = 'active' and "treatment_bookings"."next_unpaid_due" is not null and "treatment_bookings"."next_unpaid_due" < ${todayParam}::date)`;
/** A booking's payment status as readers see it: overdue as soon as an unpaid instalment is past due. */
const effectiveStatus = (todayParam: string) =>
  `case when ${late(todayParam)} then 'overdue' else "treatment_bookings"."payment_status" end`;
/**
 * The measured filter's count, `paymentStatus: 'overdue'`, as the product writes it: late, or
 * stored overdue (docs/performance.md#the-bookings-status-filter-2026-11-26). The product writes
 * the other statuses' count as `not (late) and "payment_status" = $2`; the benchmark does not ask
 * for them. The pages keep the case expression, on both sides.
 */
const OVERDUE = (todayParam: string, statusParam: string) =>
  `((${late(todayParam)}) or "treatment_bookings"."payment_status" = ${statusParam})`;
const BOOKING_COLUMNS = `"treatment_bookings"."id", "treatment_bookings"."user_id", "treatment_bookings"."treatment_id", "treatment_bookings"."treatment_name", "treatment_bookings"."max_sessions", "treatment_bookings"."deleted_username", "treatment_bookings"."deleted_email", "treatment_bookings"."user_type", "treatment_bookings"."payment_type", "treatment_bookings"."payment_status", "treatment_bookings"."price_minor", "treatment_bookings"."currency", "treatment_bookings"."period_start", "treatment_bookings"."period_end", "treatment_bookings"."sessions_completed", "treatment_bookings"."status", "treatment_bookings"."cancelled_at", "treatment_bookings"."booked_on", "treatment_bookings"."created_at", "treatment_bookings"."updated_at", "users"."username", "users"."email", "users"."full_name", "treatments"."treatment_name"`;
const BOOKING_CHILDREN = `${children('booking_installments', `"booking_id" = "treatment_bookings"."id"`, INSTALLMENT_CHILD, ['paid_at'], 'seq')}, ${children('booking_session_notes', `"booking_id" = "treatment_bookings"."id"`, ['session_number', 'note', 'date'], ['date'], 'session_number')}`;
const BOOKING_FROM = `from "treatment_bookings" left join "users" on "users"."id" = "treatment_bookings"."user_id" left join "treatments" on "treatments"."id" = "treatment_bookings"."treatment_id"`;
const BOOKING_ORDER = `order by "treatment_bookings"."created_at" desc, "treatment_bookings"."id" asc`;
/** Parameters: today, today, status, size, offset. */
export const BOOKINGS_BY_STATUS_PAGE = `select ${BOOKING_COLUMNS}, ${effectiveStatus('$1')}, ${BOOKING_CHILDREN} ${BOOKING_FROM} where ${effectiveStatus('$2')} = $3 ${BOOKING_ORDER} limit $4 offset $5`;
/** Parameters: today, status. */
export const BOOKINGS_BY_STATUS_COUNT = `select count(*) ${BOOKING_FROM} where ${OVERDUE('$1', '$2')}`;
