-- Hand-written: a project's wording of the widget is part of what the bootstrap serves from the edge cache, which
-- is keyed by projects.config_version (see 0007): every change to it bumps the version.
CREATE TRIGGER ui_strings_config_version_insert AFTER INSERT ON ui_strings
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER ui_strings_config_version_update AFTER UPDATE ON ui_strings
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.project_id;
END;
--> statement-breakpoint
CREATE TRIGGER ui_strings_config_version_delete AFTER DELETE ON ui_strings
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = OLD.project_id;
END;
