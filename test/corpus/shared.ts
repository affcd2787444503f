import { join } from "node:path";
import { ROOT } from "../helpers.js";

/**
 * ../shared beside the repository: the public spec corpus and the vendor's document. Only test/corpus/ reads it
 * (`npm run test:corpus`); `npm test` must pass in a clone of this repository alone.
 */
export const SHARED = join(ROOT, "..", "shared");
export const CORPUS = join(SHARED, "corpus");
export const VENDOR_SPEC = join(SHARED, "facts", "vendor-training-openapi.json");
