import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords';
import { settings, users } from '../db/schema';
import type { AppDeps } from '../deps';
import { seedDemoTreatments } from './demo-treatments';
import { seedDemoCourses } from './demo-courses';
import { seedDemoBranchesAndUsers } from './demo-users';
import { seedDemoPayments } from './demo-payments';

export interface SeedResult {
  created: boolean;
  adminEmail: string;
  /** Only when the password was generated here: printed once, never stored in clear. */
  generatedPassword?: string;
}

/** Demo seeders run in this order after the superadmin exists; each domain adds its own. */
const demoSeeders: Array<(deps: AppDeps) => Promise<void>> = [
  seedDemoBranchesAndUsers,
  seedDemoCourses,
  seedDemoTreatments,
  seedDemoPayments,
];

/** On an empty database: currency settings, the superadmin, and (unless SEED_DEMO=false) demo rows. */
export async function seedIfEmpty(deps: AppDeps): Promise<SeedResult> {
  const { db, config } = deps;
  await db.insert(settings).values({ id: 1 }).onConflictDoNothing();
  const [row] = await db.select({ n: count() }).from(users);
  const adminEmail = config.SEED_ADMIN_EMAIL.trim().toLowerCase();
  if ((row?.n ?? 0) > 0) return { created: false, adminEmail };

  // The configured password has at least 8 characters (config.ts); without one, a random one is shown once.
  const password = config.SEED_ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
  const generatedPassword = config.SEED_ADMIN_PASSWORD ? undefined : password;
  await db
    .insert(users)
    .values({
      username: 'superadmin',
      fullName: 'Super Admin',
      email: adminEmail,
      passwordHash: await hashPassword(password),
      role: 'superadmin',
    })
    .onConflictDoNothing();
  if (config.SEED_DEMO) {
    for (const seed of demoSeeders) await seed(deps);
  }
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, adminEmail));
  return { created: Boolean(admin), adminEmail, generatedPassword };
}
