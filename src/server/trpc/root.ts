import { authRouter } from '../domains/auth/auth.router';
import { branchesRouter } from '../domains/branches/branches.router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  branches: branchesRouter,
});

export type AppRouter = typeof appRouter;
