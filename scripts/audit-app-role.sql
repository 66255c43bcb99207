-- The application's database role in production (docs/audit.md#a-role-that-cannot-rewrite-the-log):
-- it reads and writes every table but may only add to and read the audit log. Run it as the
-- owner of the tables (the role that runs `npm run db:migrate`), after each migration:
--
--   psql "$OWNER_DATABASE_URL" -v app_role=backoffice_app -f scripts/audit-app-role.sql
--
-- The role itself is created once: CREATE ROLE backoffice_app LOGIN PASSWORD '...';
GRANT USAGE ON SCHEMA public TO :"app_role";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app_role";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"app_role";
-- The audit log: INSERT and SELECT only (the trigger refuses UPDATE and DELETE to every role as well).
REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_log FROM :"app_role";
-- The record of archive runs is written only by audit_log_purge, which the role may call
-- (docs/audit.md#retention): the only way entries leave the log.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_archive_runs FROM :"app_role";
GRANT EXECUTE ON FUNCTION audit_log_purge(timestamptz, bigint, text) TO :"app_role";
