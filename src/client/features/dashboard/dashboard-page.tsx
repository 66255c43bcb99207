import { MoneyDashboard } from '@/features/payments/money-dashboard';
import { BRAND } from '@/lib/brand';
import { FallingBehindCard } from './falling-behind-card';

/** docs/product.md#screens-and-routes: heading Dashboard, the money at a glance (docs/payments.md#dashboard), a spacer, the footer. */
export function DashboardPage() {
  return (
    <div className="flex flex-1 flex-col">
      <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>
      <MoneyDashboard />
      <FallingBehindCard />
      <div className="flex-1" data-testid="dashboard-spacer" />
      <footer className="mt-10 flex flex-col items-center justify-between gap-2 border-t pt-4 text-sm text-muted-foreground sm:flex-row">
        <p>© 2025 {BRAND} All Rights Reserved</p>
        <nav aria-label="Legal" className="flex gap-4">
          {/* spec: these links point nowhere. */}
          <a href="#" onClick={(e) => e.preventDefault()} className="hover:text-foreground hover:underline">
            Privacy Policy
          </a>
          <a href="#" onClick={(e) => e.preventDefault()} className="hover:text-foreground hover:underline">
            Terms of Service
          </a>
        </nav>
      </footer>
    </div>
  );
}
