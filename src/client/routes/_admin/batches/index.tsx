import { createFileRoute } from '@tanstack/react-router';
import { BatchListPage } from '@/features/classes/batch-pages';

export const Route = createFileRoute('/_admin/batches/')({ component: BatchListPage });
