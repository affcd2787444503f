/**
 * specforge installed the way a user installs it, without the network: `npm pack` makes the tarball, and `npm ci
 * --offline` installs it with the tools the consumer projects use (TypeScript 5.9 and 7, tsx, esbuild, Vite, Node's
 * types) from npm's cache. The lockfile that install reads is derived from this repository's package-lock.json (the
 * same versions, resolved URLs and integrity hashes), so every package comes out of the cache `npm ci` filled for
 * this repository: a fresh CI machine has them all after its own `npm ci`.
 *
 * The install is made once (the "store"); each consumer project gets a copy of its node_modules made of hard links,
 * and the package.json and lockfile an install of the same packages writes.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runAsUser, type CliResult } from "../helpers.js";

/** What the consumer projects install besides specforge: the versions this repository pins. */
const TOOLS = ["typescript", "typescript7", "tsx", "esbuild", "vite", "@types/node"] as const;

/** npm kept off the network: every package comes from the cache. */
const OFFLINE: NodeJS.ProcessEnv = { npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };

/** Runs a command in `cwd` as a user's shell would, npm offline (never throws: the exit code is in the result). */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runAsUser(command, args, cwd, { ...OFFLINE, ...env });
}

/** Like `run`, but a non-zero exit fails with the command's output. */
export async function ok(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0) throw new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  [key: string]: unknown;
}

/**
 * The lockfile of a project whose devDependencies are `devDependencies`: each package as this repository's
 * lockfile has it, found from the project's root the way Node resolves it (a nested node_modules first), with every
 * dependency it needs; specforge's own entry is the tarball.
 */
function consumerLock(name: string, devDependencies: Record<string, string>, tarball: { file: string; integrity: string }): unknown {
  const repository = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; license: string; dependencies: Record<string, string>; bin: Record<string, string>; engines: Record<string, string> };
  const packages: Record<string, LockEntry> = {};
  const locate = (from: string, dependency: string): string | undefined => {
    for (let base = from; ; ) {
      const candidate = `${base === "" ? "" : `${base}/`}node_modules/${dependency}`;
      if (repository.packages[candidate]) return candidate;
      if (base === "") return undefined;
      const parent = base.lastIndexOf("/node_modules/");
      base = parent < 0 ? "" : base.slice(0, parent);
    }
  };
  const add = (location: string | undefined, dependency: string): void => {
    if (location === undefined) throw new Error(`package-lock.json has no ${dependency}: run npm install in the repository`);
    if (packages[location]) return;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = repository.packages[location]!;
    // Everything is a devDependency of the project (or one's dependency); optional ones (other platforms' binaries)
    // stay optional, and are skipped on this platform as npm would.
    packages[location] = { ...entry, dev: true };
    for (const list of [entry.dependencies, entry.optionalDependencies, entry.peerDependencies]) {
      for (const next of Object.keys(list ?? {})) {
        const found = locate(location, next);
        // A peer dependency the repository does not install is an optional one nobody needs here.
        if (found || !entry.peerDependencies?.[next]) add(found, next);
      }
    }
  };
  for (const dependency of [...TOOLS, ...Object.keys(own.dependencies)]) add(locate("", dependency), dependency);
  return {
    name,
    version: "1.0.0",
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { name, version: "1.0.0", devDependencies },
      "node_modules/specforge": {
        version: own.version,
        resolved: `file:${tarball.file}`,
        integrity: tarball.integrity,
        dev: true,
        license: own.license,
        dependencies: own.dependencies,
        bin: own.bin,
        engines: own.engines,
      },
      ...packages,
    },
  };
}

export interface Store {
  /** The folder the projects are made in: the tarball and the store are here. */
  root: string;
  /** The devDependencies every project lists (specforge from the tarball, one folder up). */
  devDependencies: Record<string, string>;
}

/**
 * Packs specforge (its `dist/` is built: the vitest global setup builds it, what `prepack` does) and installs the
 * tarball and the tools offline into `root/store`.
 */
export async function installStore(root: string): Promise<Store> {
  const pack = await ok("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", root], ROOT);
  const [info] = JSON.parse(pack.stdout) as { filename: string }[];
  const file = `../${info!.filename}`;
  const integrity = `sha512-${createHash("sha512").update(readFileSync(join(root, info!.filename))).digest("base64")}`;
  const repository = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  const devDependencies: Record<string, string> = { specforge: `file:${file}`, ...Object.fromEntries(TOOLS.map((tool) => [tool, repository.devDependencies[tool]!])) };
  const store = join(root, "store");
  mkdirSync(store);
  writeFileSync(join(store, "package.json"), `${JSON.stringify({ name: "store", version: "1.0.0", private: true, devDependencies }, null, 2)}\n`);
  writeFileSync(join(store, "package-lock.json"), `${JSON.stringify(consumerLock("store", devDependencies, { file, integrity }), null, 2)}\n`);
  // --ignore-scripts: specforge has none, and the tools' binaries come as packages of their own (esbuild's postinstall
  // only checks its binary, which would need no network either).
  await ok("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], store);
  return { root, devDependencies };
}

/**
 * A new project in `root/name`: `npm init -y` (a CommonJS package, as npm makes it), then `type` if given, and
 * the store's packages as if `npm install -D` had put them there (the package.json entries, the lockfile, and
 * node_modules as hard links to the store's files).
 */
export async function newProject(store: Store, name: string, type?: "module"): Promise<string> {
  const dir = join(store.root, name);
  mkdirSync(dir);
  await ok("npm", ["init", "-y"], dir);
  if (type) await ok("npm", ["pkg", "set", `type=${type}`], dir);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ ...pkg, devDependencies: store.devDependencies }, null, 2)}\n`);
  const lock = JSON.parse(readFileSync(join(store.root, "store", "package-lock.json"), "utf8")) as { name: string; packages: Record<string, { name?: string }> };
  lock.name = lock.packages[""]!.name = name;
  writeFileSync(join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
  // Hard links (GNU cp): 150 MB per project otherwise. Where `cp -al` is not there, a plain copy.
  const linked = await run("cp", ["-al", join(store.root, "store", "node_modules"), join(dir, "node_modules")], store.root);
  if (linked.code !== 0) cpSync(join(store.root, "store", "node_modules"), join(dir, "node_modules"), { recursive: true, verbatimSymlinks: true });
  if (!existsSync(join(dir, "node_modules", ".bin", "specforge"))) throw new Error(`${dir}: node_modules/.bin/specforge is missing`);
  return dir;
}
