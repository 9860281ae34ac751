// What the configuration page knows of each kind of record it manages (purposes, data groups, parties): a
// descriptor per kind, so the page runs one list, edit, save and delete flow for all of them.
import type { TemplateResult } from "lit";
import type { Column } from "../../parts";
import type { DataGroup, Party, Project, Purpose, Translation } from "../../types";
import type { TranslationsEditor } from "../../ui";

/** The records of the project, as the page last loaded them. */
export type Lists = { purposes: Purpose[]; dataGroups: DataGroup[]; parties: Party[] };

/** What editors and tables see of the page: the project, its records, and a way to re-render after a local change. */
export type ConfigurationView = Lists & { project: Project; update: () => void };

/** One open editor, bound to the record it edits (or to none: a new record). */
export type Editor = {
  fields: (view: ConfigurationView) => TemplateResult;
  /** Saves the form through the API; answers the confirmation to show. Throws a problem the editor then shows. */
  save: (form: HTMLFormElement, view: ConfigurationView) => Promise<string>;
};

export type Kind<T> = {
  /** What one is called in titles and button names (“New data group”, “Edit data group …”). */
  noun: string;
  id: (item: T) => string;
  name: (item: T) => string;
  /** The texts its editor starts from. */
  description: (item: T) => Translation[];
  list: (projectId: string) => Promise<T[]>;
  /** Reads one as it is now; the API client keeps the ETag of this read for the save or delete that follows. */
  read: (projectId: string, id: string) => Promise<T>;
  remove: (projectId: string, id: string) => Promise<unknown>;
  /** What deleting one means, said before it is done. */
  consequence: string;
  /** `texts` is fixed when the editor opens: the same array on every render keeps Lit from resetting the translations. */
  editor: (item: T | null, texts: Translation[]) => Editor;
  table: Table<T>;
};

/** A kind's section of the page: a heading with its “New …” button, and a table of its records. */
export type Table<T> = {
  title: string;
  headingId: string;
  /** The “New …” button is the section's main action. */
  primary?: boolean;
  /** Something that must exist before one can be made; while it does not, the button is disabled and this says why. */
  needs?: { met: (view: ConfigurationView) => boolean; noticeId: string; notice: string };
  empty: string;
  columns: Column[];
  /** Its row; `actions` is the cell with Edit and Delete. */
  row: (item: T, view: ConfigurationView, actions: TemplateResult) => TemplateResult;
};

export const referenceHint = "Your own identifier: letters, digits and - . _ ~; unique in the project.";

/** The text in `language`, else the first one. */
export const textIn = (translations: Translation[], language: string) =>
  translations.find((t) => t.language === language)?.text ?? translations[0]?.text ?? "";

/** The filled-in rows of the translations editor `id` in `form`. */
export const translationsIn = (form: HTMLFormElement, id: string) => form.querySelector<TranslationsEditor>(`#${id}`)?.translations ?? [];
