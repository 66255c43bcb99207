import type { LinkProps } from '@tanstack/react-router';
import {
  BarChart3Icon,
  BookOpenIcon,
  CalendarDaysIcon,
  ClipboardCheckIcon,
  Building2Icon,
  GraduationCapIcon,
  LayoutDashboardIcon,
  MailIcon,
  ScrollTextIcon,
  SettingsIcon,
  StethoscopeIcon,
  UsersIcon,
  WalletIcon,
  type LucideIcon,
} from 'lucide-react';

export type NavTo = NonNullable<LinkProps['to']>;

export interface NavLinkItem {
  to: NavTo;
  label: string;
  icon?: LucideIcon;
  /** docs/product.md#screens-and-routes: the add/create/enroll/book sub-links are for admin and superadmin only. */
  adminOnly?: boolean;
  /**
   * Shown to managers only: a list screen they may use but whose admin sub-link they do not see
   * (every screen a role may use is reachable from the sidebar, docs/product.md#screens-and-routes).
   */
  managerOnly?: boolean;
}

export interface NavGroupItem extends NavLinkItem {
  icon: LucideIcon;
  children?: NavLinkItem[];
}

/** Shown to every staff role (manager, admin, superadmin). */
export const PRIMARY_NAV: NavGroupItem[] = [
  { to: '/', label: 'Dashboard', icon: LayoutDashboardIcon },
  { to: '/reports', label: 'Reports', icon: BarChart3Icon },
  { to: '/payments', label: 'Payments', icon: WalletIcon },
  // docs/appointments.md#screens: the clinic's calendar and the front desk's day.
  { to: '/calendar', label: 'Calendar', icon: CalendarDaysIcon },
  { to: '/calendar/today', label: 'Today', icon: ClipboardCheckIcon },
  // docs/classes.md: batches, and from there the register.
  { to: '/batches', label: 'Batches', icon: GraduationCapIcon },
];

export const ADMIN_MANAGEMENT_TITLE = 'All Admin management';

export const ADMIN_MANAGEMENT_NAV: NavGroupItem[] = [
  {
    to: '/courses',
    label: 'Courses',
    icon: BookOpenIcon,
    children: [
      { to: '/courses/add-courses', label: 'Add Courses', adminOnly: true },
      { to: '/courses/enrollment', label: 'Enroll Course', adminOnly: true },
      { to: '/courses/AllStudentEnrollments', label: 'All Enroll', adminOnly: true },
      { to: '/courses/AllStudentEnrollments', label: 'All Enrollments', managerOnly: true },
    ],
  },
  {
    to: '/branch',
    label: 'Branch',
    icon: Building2Icon,
    children: [{ to: '/branch/add-branch', label: 'Add Branch', adminOnly: true }],
  },
  {
    to: '/users',
    label: 'Users',
    icon: UsersIcon,
    children: [{ to: '/users/add-user', label: 'Add User', adminOnly: true }],
  },
  {
    to: '/treatment',
    label: 'Treatment',
    icon: StethoscopeIcon,
    children: [
      { to: '/treatment/create-treatement', label: 'Add treatment', adminOnly: true },
      { to: '/treatment/booking', label: 'Book treatment', adminOnly: true },
      { to: '/treatment/all-book', label: 'All Book Treatment', adminOnly: true },
      { to: '/treatment/all-book', label: 'All Bookings', managerOnly: true },
    ],
  },
];

/** Below the management group; Settings (currency) and the Audit log (docs/audit.md) are for admins only (docs/product.md). */
export const FOOTER_NAV: NavGroupItem[] = [
  { to: '/settings', label: 'Settings', icon: SettingsIcon, adminOnly: true },
  { to: '/audit', label: 'Audit log', icon: ScrollTextIcon, adminOnly: true },
  // Settings → Messages: staff read the settings and templates, admins change them.
  { to: '/settings/messages', label: 'Messages', icon: MailIcon },
];
