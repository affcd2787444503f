/** Svix (https://docs.svix.com/receiving/verifying-payloads/how-manual): Standard Webhooks' signatures under `svix-id`, `svix-timestamp` and `svix-signature` (either set of headers is accepted). */
import type { SchemePreset } from "./schemes.js";
import { standardScheme } from "./scheme-standard-webhooks.js";

/** `scheme: "svix"`. */
export const svixScheme: SchemePreset = { name: "svix", resolve: (options) => standardScheme("svix", options) };
