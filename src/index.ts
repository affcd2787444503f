export { generate, check, type GenerateOptions, type CheckOptions, type CheckResult, type GenerateResult } from "./api.js";
export { UserError, type SpecWarning } from "./errors.js";
export { defineConfig, type UserConfig, type FetchConfig, type ResolvedConfig, type OutputKind } from "./config/resolve.js";
export type { GenerateReport } from "./pipeline.js";
export type { Drift } from "./write/drift.js";
