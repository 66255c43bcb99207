import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common';

export const branches = pgTable(
  'branches',
  {
    id: id(),
    name: text('name').notNull(),
    location: text('location').notNull(),
    /** The branch's own number (E.164), or null: people are told to call it, else the organisation's. */
    phone: text('phone'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('branches_name_lower_uq').on(sql`lower(${t.name})`)],
);
