import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { contactLine, loadOrganisation } from '../settings/organisation.service';

/** What heads a printed statement: the organisation's name, and lines under it (address, phone). */
export interface StatementHeader {
  name: string;
  lines: string[];
}

/** The organisation's letterhead on a statement (Settings → Organisation, docs/users.md). */
export async function statementHeader(deps: { db: Db; config: Pick<Config, 'APP_NAME'> }): Promise<StatementHeader> {
  const o = await loadOrganisation(deps.db, deps.config);
  const contact = contactLine(o);
  return { name: o.name, lines: contact ? [contact] : [] };
}
