-- Hand-written: a purpose version's content is part of what a write validates against and signs (its receipt
-- hashes the wording), and writes guard the isolate's copy of it by projects.config_version
-- (worker/requests/snapshot.ts). Version rows are written together with their purpose today, which already bumps
-- it; these triggers make the version rows bump it themselves, so no future write path can forget it.
CREATE TRIGGER purpose_versions_config_version_insert AFTER INSERT ON purpose_versions
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = (SELECT project_id FROM purposes WHERE id = NEW.purpose_id);
END;
--> statement-breakpoint
CREATE TRIGGER purpose_versions_config_version_update AFTER UPDATE ON purpose_versions
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = (SELECT project_id FROM purposes WHERE id = NEW.purpose_id);
END;
--> statement-breakpoint
CREATE TRIGGER purpose_versions_config_version_delete AFTER DELETE ON purpose_versions
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = (SELECT project_id FROM purposes WHERE id = OLD.purpose_id);
END;
