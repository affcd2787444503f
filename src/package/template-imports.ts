import { createRequire } from "node:module";

/**
 * The packages an output imports because it is built for them, and which the user therefore has: the MSW handlers
 * import `msw` (its runtime and its file template), and nothing else does.
 */
const OUTPUT_PACKAGES: Record<string, readonly string[]> = { "msw/": ["msw"], "files/msw.ts": ["msw"] };

/**
 * The runtime templates are copied into downstream repositories, which must need no runtime dependency for them:
 * a template may import only its siblings (`./x.js`), Node built-ins (`node:…`) and the package of the output it
 * belongs to (`OUTPUT_PACKAGES`). Checked with ts-morph on the templates' syntax when specforge is built (and by its
 * tests), so a stray `import … from "some-package"` never ships.
 */
export function foreignImports(files: { path: string; text: string }[]): string[] {
  const { Project, SyntaxKind } = createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph");
  const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true, skipFileDependencyResolution: true });
  const problems: string[] = [];
  for (const file of files) {
    const source = project.createSourceFile(`/${file.path}`, file.text, { overwrite: true });
    const specifiers = [
      ...source.getImportDeclarations().map((d) => d.getModuleSpecifierValue()),
      ...source.getExportDeclarations().flatMap((d) => d.getModuleSpecifierValue() ?? []),
      ...source
        .getDescendantsOfKind(SyntaxKind.CallExpression)
        .filter((call) => call.getExpression().getText() === "import")
        .map((call) => call.getArguments()[0]?.getText().slice(1, -1) ?? ""),
    ];
    const allowed = Object.entries(OUTPUT_PACKAGES).flatMap(([prefix, packages]) => (file.path.startsWith(prefix) ? packages : []));
    for (const specifier of specifiers) {
      if (!/^\.\.?\//.test(specifier) && !specifier.startsWith("node:") && !allowed.includes(specifier)) problems.push(`${file.path}: imports "${specifier}"`);
    }
  }
  return problems;
}
