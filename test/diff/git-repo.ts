import { execFileSync } from "node:child_process";
import { tempDir } from "../helpers.js";

/** Runs git in `cwd` with a fixed identity and no user or system config, so tests do not depend on the machine. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=test@example.com", "-c", "user.name=specforge test", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false", ...args], {
    cwd,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_TERMINAL_PROMPT: "0" },
    encoding: "utf8",
  });
}

/** A new repository in a temporary folder. */
export function gitRepo(): string {
  const dir = tempDir("specforge-git-test-");
  git(dir, "init", "-q", "-b", "main");
  return dir;
}

export function commitAll(dir: string, message: string): string {
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD").trim();
}
