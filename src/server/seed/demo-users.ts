import { inArray } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords';
import { branches, users } from '../db/schema';
import type { AppDeps } from '../deps';
import type { ServiceContext } from '../domains/context';
import type { Role } from '../../shared/roles';

/** Every demo account shares this password (README); SEED_DEMO=false skips demo data. */
export const DEMO_PASSWORD = 'demo-pass-2025';

const DEMO_BRANCHES = [
  { name: 'Colombo Main', location: 'Colombo 07' },
  { name: 'Kandy', location: 'Peradeniya Road, Kandy' },
  { name: 'Galle', location: 'Galle Fort' },
];

export const DEMO_USERS: Array<{ username: string; fullName: string; role: Role; branch: number }> = [
  { username: 'admin.colombo', fullName: 'Amali Perera', role: 'admin', branch: 0 },
  { username: 'manager', fullName: 'Nuwan Silva', role: 'manager', branch: 1 },
  { username: 'manager.galle', fullName: 'Dilani Fernando', role: 'manager', branch: 2 },
  { username: 'student1', fullName: 'Kasun Jayasuriya', role: 'student', branch: 0 },
  { username: 'student2', fullName: 'Ishara Wickramasinghe', role: 'student', branch: 1 },
  { username: 'student3', fullName: 'Tharindu Bandara', role: 'student', branch: 2 },
  { username: 'customer1', fullName: 'Sarah Collins', role: 'customer', branch: 0 },
  { username: 'customer2', fullName: 'Ruwan Gunasekara', role: 'customer', branch: 1 },
  { username: 'user1', fullName: 'Chamari Dissanayake', role: 'user', branch: 2 },
];

export async function seedDemoBranchesAndUsers({ db }: AppDeps) {
  const created = await db.insert(branches).values(DEMO_BRANCHES).onConflictDoNothing().returning();
  if (created.length < DEMO_BRANCHES.length) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const branchId = (i: number) => {
    const branch = created[i];
    if (!branch) throw new Error(`Demo branch ${i} was not created.`);
    return branch.id;
  };
  await db
    .insert(users)
    .values(
      DEMO_USERS.map((u) => ({
        username: u.username,
        fullName: u.fullName,
        email: `${u.username}@example.com`,
        passwordHash,
        role: u.role,
        branchId: branchId(u.branch),
      })),
    )
    .onConflictDoNothing();
}

/**
 * The demo staff as signed-in callers, so demo payments are recorded by the ledger's own service
 * as a cashier would record them; a name without a demo account answers null.
 */
export async function demoStaff(deps: AppDeps, usernames: string[]) {
  const { db } = deps;
  const staff = await db.select().from(users).where(inArray(users.username, usernames));
  return (username: string): ServiceContext | null => {
    const u = staff.find((s) => s.username === username);
    return u
      ? {
          db,
          deps,
          actor: {
            id: u.id,
            role: u.role,
            email: u.email,
            username: u.username,
            fullName: u.fullName,
            branchId: u.branchId,
            sessionId: 'seed',
          },
        }
      : null;
  };
}
