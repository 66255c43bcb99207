import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common';

export const branches = pgTable(
  'branches',
  {
    id: id(),
    name: text('name').notNull(),
    location: text('location').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('branches_name_lower_uq').on(sql`lower(${t.name})`)],
);
