import type * as TS from "typescript";

type TypeScript = typeof import("typescript");

/**
 * A runtime folder's declarations trimmed to its typed surface. Every output ships each runtime module as `.js` plus
 * `.d.ts`, and a downstream `tsc` parses and binds every declaration it is given; TypeScript's declaration emit
 * declares every export, including the helpers a module exports only for its sibling `.js` files (the router's
 * JSON parser and route trie, the client's retry and redirect rules), which no declaration ever names. Those
 * were a quarter of the runtime's declaration text (docs/performance.md, "What your compiler pays").
 *
 * Kept: every export of the folder's public modules (`types`, and `index` where a generated file imports it), every
 * name a generated file's template imports or re-exports from the folder, and, transitively, every declaration a
 * kept declaration names (imported from a sibling or local). Dropped: the other top-level declarations, and the
 * import specifiers only they used. The `.js` keeps its code; what it no longer declares is the runtime's
 * internals, documented and type-checked in templates/.
 *
 * @param declarations each module's emitted declarations, by module name (`retry` for `retry.d.ts`)
 * @param roots by module name: `"all"` (every export is public) or the names of its exports that are
 */
export function trimDeclarations(ts: TypeScript, declarations: ReadonlyMap<string, string>, roots: ReadonlyMap<string, "all" | ReadonlySet<string>>): Map<string, string> {
  const modules = new Map([...declarations].map(([name, text]) => [name, readModule(ts, name, text)]));
  const kept = new Map([...modules.keys()].map((name) => [name, new Set<string>()]));
  const queue: [string, string][] = [];
  const keep = (module: string | undefined, name: string): void => {
    const names = module === undefined ? undefined : kept.get(module);
    if (!names || names.has(name)) return;
    names.add(name);
    queue.push([module!, name]);
  };
  for (const [module, names] of roots) {
    const parsed = modules.get(module);
    if (!parsed) continue;
    for (const name of names === "all" ? parsed.exported() : names) keep(module, name);
  }
  while (queue.length > 0) {
    const [module, name] = queue.pop()!;
    const parsed = modules.get(module)!;
    const imported = parsed.imports.get(name);
    if (imported) keep(imported.module, imported.name);
    for (const reexport of parsed.reexports) {
      if (reexport.name === name) keep(reexport.module ?? module, reexport.original);
    }
    for (const star of parsed.stars) if (modules.get(star)?.exported().includes(name)) keep(star, name);
    for (const statement of parsed.declarations.get(name) ?? []) {
      forEachIdentifier(ts, statement, (text) => {
        if (parsed.declarations.has(text) || parsed.imports.has(text)) keep(module, text);
      });
    }
  }
  return new Map([...modules].map(([name, parsed]) => [name, parsed.trimmed(kept.get(name)!)]));
}

interface ParsedModule {
  /** Local name → the sibling module and its exported name. */
  imports: Map<string, { module: string | undefined; name: string }>;
  /** `export { original as name } from "./module.js"` (module undefined: a local `export { … }`). */
  reexports: { name: string; module: string | undefined; original: string }[];
  /** `export * from "./module.js"`. */
  stars: string[];
  /** Top-level declarations by the name they declare (several for overloads or a merged declaration). */
  declarations: Map<string, TS.Statement[]>;
  /** The names the module exports (declared with `export`, or re-exported). */
  exported(): string[];
  /** The text with the declarations not in `kept`, and the imports only they used, removed. */
  trimmed(kept: ReadonlySet<string>): string;
}

const SIBLING = /^\.\/([\w-]+)\.js$/;

function readModule(ts: TypeScript, fileName: string, text: string): ParsedModule {
  const source = ts.createSourceFile(`${fileName}.d.ts`, text, ts.ScriptTarget.Latest, true);
  const sibling = (specifier: TS.Expression | undefined): string | undefined =>
    specifier && ts.isStringLiteral(specifier) ? SIBLING.exec(specifier.text)?.[1] : undefined;
  const imports = new Map<string, { module: string | undefined; name: string }>();
  const reexports: ParsedModule["reexports"] = [];
  const stars: string[] = [];
  const declarations = new Map<string, TS.Statement[]>();
  const exportedDeclarations: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) imports.set(element.name.text, { module: sibling(statement.moduleSpecifier), name: (element.propertyName ?? element.name).text });
      }
      continue;
    }
    if (ts.isExportDeclaration(statement)) {
      const module = sibling(statement.moduleSpecifier);
      if (!statement.exportClause) {
        if (module) stars.push(module);
      } else if (ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) reexports.push({ name: element.name.text, module, original: (element.propertyName ?? element.name).text });
      }
      continue;
    }
    for (const name of declaredNames(ts, statement)) {
      declarations.set(name, [...(declarations.get(name) ?? []), statement]);
      if (isExported(ts, statement)) exportedDeclarations.push(name);
    }
  }
  return {
    imports,
    reexports,
    stars,
    declarations,
    exported: () => [...new Set([...exportedDeclarations, ...reexports.filter((reexport) => reexport.module !== undefined || declarations.has(reexport.original)).map((reexport) => reexport.name)])],
    trimmed(kept) {
      const removals: [number, number, string][] = [];
      const used = new Set<string>();
      const remaining: TS.Statement[] = [];
      const dropped: string[] = [];
      for (const statement of source.statements) {
        if (ts.isImportDeclaration(statement)) continue;
        if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
          const elements = statement.exportClause.elements.filter((element) => kept.has(element.name.text));
          if (statement.exportClause.elements.length === 0) remaining.push(statement); // `export {};`
          else if (elements.length === 0) removals.push([statement.getFullStart(), statement.end, ""]);
          else {
            if (elements.length < statement.exportClause.elements.length) removals.push([statement.exportClause.getStart(source), statement.exportClause.end, `{ ${elements.map((element) => element.getText(source)).join(", ")} }`]);
            if (!statement.moduleSpecifier) for (const element of elements) used.add((element.propertyName ?? element.name).text);
            remaining.push(statement);
          }
          continue;
        }
        const names = declaredNames(ts, statement);
        if (names.length > 0 && !names.some((name) => kept.has(name))) {
          removals.push([statement.getFullStart(), statement.end, ""]);
          if (isExported(ts, statement)) for (const name of names) if (!dropped.includes(name)) dropped.push(name);
          continue;
        }
        forEachIdentifier(ts, statement, (name) => used.add(name));
        remaining.push(statement);
      }
      for (const statement of source.statements) {
        if (!ts.isImportDeclaration(statement)) continue;
        const clause = statement.importClause;
        const bindings = clause?.namedBindings;
        if (!clause || clause.name || !bindings || !ts.isNamedImports(bindings)) {
          remaining.push(statement);
          continue;
        }
        const elements = bindings.elements.filter((element) => used.has(element.name.text));
        if (elements.length === 0) removals.push([statement.getFullStart(), statement.end, ""]);
        else {
          if (elements.length < bindings.elements.length) removals.push([bindings.getStart(source), bindings.end, `{ ${elements.map((element) => element.getText(source)).join(", ")} }`]);
          remaining.push(statement);
        }
      }
      let result = text;
      for (const [start, end, replacement] of removals.sort((a, b) => b[0] - a[0])) result = result.slice(0, start) + replacement + result.slice(end);
      if (dropped.length === 0) return result;
      // The note goes last, before the `export {};` that TypeScript ends a file with when it exports no name.
      const note = `// Not declared: ${dropped.join(", ")} (used only by the runtime's own modules).\n`;
      const body = result.replace(/\n*$/, "");
      if (body.endsWith("\nexport {};")) return `${body.slice(0, -"export {};".length)}${note}export {};\n`;
      result = `${body ? `${body}\n` : ""}${note}`;
      // A declaration file without an import or export would declare globals.
      const isModule = remaining.some((statement) => ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) || ts.isExportAssignment(statement) || isExported(ts, statement));
      return isModule ? result : `${result}export {};\n`;
    },
  };
}

function declaredNames(ts: TypeScript, statement: TS.Statement): string[] {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((declaration) => (ts.isIdentifier(declaration.name) ? [declaration.name.text] : []));
  if (
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isFunctionDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement)
  ) {
    return statement.name && ts.isIdentifier(statement.name) ? [statement.name.text] : [];
  }
  return [];
}

function isExported(ts: TypeScript, statement: TS.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
}

/** Every identifier in a node (a superset of the names it refers to: property names too, which only keeps more). */
function forEachIdentifier(ts: TypeScript, node: TS.Node, visit: (text: string) => void): void {
  const walk = (child: TS.Node): void => {
    if (ts.isIdentifier(child)) visit(child.text);
    ts.forEachChild(child, walk);
  };
  walk(node);
}

/**
 * What a runtime folder declares publicly (the roots of `trimDeclarations`): every export of its `types` module, and
 * of its `index` module where a file template (templates/files/*.ts, what the generated client, server and webhooks
 * are made from) imports it; and each name a file template imports or re-exports from one of its modules.
 */
export function surfaceRoots(ts: TypeScript, kind: string, fileTemplates: readonly string[]): Map<string, "all" | Set<string>> {
  const roots = new Map<string, "all" | Set<string>>([["types", "all"]]);
  const prefix = new RegExp(`^\\.\\./${kind}/([\\w-]+)\\.js$`);
  for (const text of fileTemplates) {
    const source = ts.createSourceFile("template.ts", text, ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const module = prefix.exec(statement.moduleSpecifier.text)?.[1];
      if (module === undefined) continue;
      if (module === "index") {
        roots.set(module, "all");
        continue;
      }
      const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : statement.exportClause;
      const names = roots.get(module) ?? new Set<string>();
      if (names === "all") continue;
      if (!bindings || !(ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
        roots.set(module, "all"); // a namespace import or `export *`: everything is reachable
        continue;
      }
      for (const element of bindings.elements) names.add((element.propertyName ?? element.name).text);
      roots.set(module, names);
    }
  }
  return roots;
}
