import { english } from "../strings";

/* English is the reference (../strings.ts); this module is its language file like any other. */
export default english;
