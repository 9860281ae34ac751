-- Hand-written: every change to what the consent widget shows bumps projects.config_version, which keys the
-- edge cache of the configuration (worker/configuration/document.ts). Triggers, so no write path can forget it.
-- Writes of config_version itself (and of created/updated only) do not fire the projects trigger.
CREATE TRIGGER projects_config_version AFTER UPDATE OF name, controller, policies, jurisdiction, default_language, jurisdiction_rules, consent_mode ON projects
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER purposes_config_version_insert AFTER INSERT ON purposes
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER purposes_config_version_update AFTER UPDATE ON purposes
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER purposes_config_version_delete AFTER DELETE ON purposes
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = OLD.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER data_groups_config_version_insert AFTER INSERT ON data_groups
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER data_groups_config_version_update AFTER UPDATE ON data_groups
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER data_groups_config_version_delete AFTER DELETE ON data_groups
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = OLD.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER parties_config_version_insert AFTER INSERT ON parties
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER parties_config_version_update AFTER UPDATE ON parties
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER parties_config_version_delete AFTER DELETE ON parties
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = OLD.project_id;
END;
