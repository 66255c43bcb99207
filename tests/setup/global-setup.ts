import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client';
import { startServices } from './services';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
    redisUrl: string;
  }
}

export const TEMPLATE_DB = 'backoffice_template';

/** Starts PostgreSQL and Redis once, migrates a template database each test file clones. */
export default async function setup(project: TestProject) {
  const services = await startServices();
  console.log(`[tests] PostgreSQL and Redis from ${services.source}`);
  const admin = postgres(services.databaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${TEMPLATE_DB}`);
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  await admin.end();

  const templateUrl = withDatabase(services.databaseUrl, TEMPLATE_DB);
  const handle = await openDatabase({ databaseUrl: templateUrl, dataDir: '', max: 1 });
  await handle.migrate();
  await handle.close();

  project.provide('adminDatabaseUrl', services.databaseUrl);
  project.provide('templateDatabase', TEMPLATE_DB);
  project.provide('redisUrl', services.redisUrl);
  return () => services.stop();
}

export function withDatabase(url: string, db: string) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}
