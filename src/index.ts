export { generate, check, type GenerateOptions, type CheckResult, type GenerateResult } from "./api.js";
export { UserError, type SpecWarning } from "./errors.js";
export type { UserConfig, ResolvedConfig, OutputKind } from "./config/resolve.js";
