"use client";

import { showPreferences } from "@assent/react";

/** Reopens the widget's preferences: every page needs a way back to the choices. */
export function PrivacyChoices() {
  return (
    <button type="button" onClick={showPreferences}>
      Privacy choices
    </button>
  );
}
