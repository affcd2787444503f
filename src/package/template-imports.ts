import { createRequire } from "node:module";

/**
 * The runtime templates are copied into downstream repositories, which must need no runtime dependency for them:
 * a template may import only its siblings (`./x.js`) and Node built-ins (`node:…`). Checked with ts-morph on the
 * templates' syntax when specforge is built (and by its tests), so a stray `import … from "some-package"` never
 * ships.
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
    for (const specifier of specifiers) {
      if (!/^\.\.?\//.test(specifier) && !specifier.startsWith("node:")) problems.push(`${file.path}: imports "${specifier}"`);
    }
  }
  return problems;
}
