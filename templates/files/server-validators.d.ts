import type { GeneratedValidators } from "../server/index.js";

/** Stand-in for the generated `server-validators.js` (src/emit/server-validators.ts), so this template type-checks. */
export declare const requestValidators: GeneratedValidators;
