#!/usr/bin/env node
// Installs the benchmarks' own dependencies (bench/package.json: the peer generators, Fastify, autocannon, Ajv)
// into bench/node_modules, from bench/package-lock.json. They are kept out of specforge's package.json so that
// `npm ci` for the product and its tests neither downloads them nor warns about their Node engines.
// Does nothing when bench/node_modules already holds exactly this lockfile.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BENCH = dirname(fileURLToPath(import.meta.url));
const stamp = join(BENCH, "node_modules", ".specforge-bench-lock");
const lockHash = createHash("sha256").update(readFileSync(join(BENCH, "package-lock.json"))).digest("hex");

if (existsSync(stamp) && readFileSync(stamp, "utf8") === lockHash) process.exit(0);
console.error("bench: installing the benchmarks' dependencies into bench/node_modules (npm ci)");
execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: BENCH, stdio: "inherit" });
writeFileSync(stamp, lockHash);
