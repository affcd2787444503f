import { clearReport } from "./report.js";

/** `npm run test:corpus`: report.md is rebuilt from this run's sections only. */
export default function setup(): void {
  clearReport();
}
