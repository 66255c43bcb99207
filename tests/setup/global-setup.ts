import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client';
import { preparePgliteTemplate } from './pglite-template';
import { startServices, withDatabase } from './services';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
    redisUrl: string;
    /** A migrated embedded data folder that embedded test apps start on a copy of. */
    pgliteTemplate: string;
  }
}

export const TEMPLATE_DB = 'backoffice_template';

/** Starts PostgreSQL and Redis once, migrates a template database each test file clones. */
export default async function setup(project: TestProject) {
  const services = await startServices();
  console.log(`[tests] PostgreSQL and Redis from ${services.source}`);
  let pgliteTemplate: string;
  try {
    await migrateTemplate(services.databaseUrl);
    pgliteTemplate = await preparePgliteTemplate();
  } catch (err) {
    // Vitest never calls the teardown of a setup that threw: stop the servers here.
    await services.stop();
    throw err;
  }

  project.provide('adminDatabaseUrl', services.databaseUrl);
  project.provide('templateDatabase', TEMPLATE_DB);
  project.provide('redisUrl', services.redisUrl);
  project.provide('pgliteTemplate', pgliteTemplate);
  return () => services.stop();
}

async function migrateTemplate(databaseUrl: string) {
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${TEMPLATE_DB}`);
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  await admin.end();
  const handle = await openDatabase({ databaseUrl: withDatabase(databaseUrl, TEMPLATE_DB), dataDir: '', max: 1 });
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
}
