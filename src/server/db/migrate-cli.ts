import { loadConfig } from '../config';
import { openDatabase } from './client';

const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, max: 1 });
await handle.migrate();
await handle.close();
console.log(`Migrations applied (${handle.kind}).`);
