import type { Config } from '../../config';

/** What heads a printed statement: the organisation's name, and lines under it (address, phone). */
export interface StatementHeader {
  name: string;
  lines: string[];
}

/**
 * The organisation's header on a statement: today the name printed on receipts (APP_NAME). It is
 * the one place a statement learns who issues it, so organisation settings replace this alone.
 */
export async function statementHeader(deps: { config: Pick<Config, 'APP_NAME'> }): Promise<StatementHeader> {
  return { name: deps.config.APP_NAME, lines: [] };
}
