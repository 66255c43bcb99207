import { authRouter } from '../domains/auth/auth.router';
import { branchesRouter } from '../domains/branches/branches.router';
import { usersRouter } from '../domains/users/users.router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  branches: branchesRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;
