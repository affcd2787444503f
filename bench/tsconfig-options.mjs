// The compiler options every `tsc --noEmit` of the benchmarks runs with (bench/generate.mjs, bench/tsc.mjs): a Node
// project's (DOM + @types/node). specforge's output needs Node's types (its node:http adapter); giving every tool the
// same options keeps the cost of reading them out of the ratios. NodeNext suits every output measured: each either is
// one file or imports its siblings with `.js` suffixes.

/** `compilerOptions` with `types` (e.g. ["node"]) read from `typeRoots` (the folder of the @types packages). */
export function benchCompilerOptions(types, typeRoots) {
  return {
    target: "ES2022",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    pretty: false,
    types,
    ...(types.length ? { typeRoots: [typeRoots] } : {}),
  };
}
