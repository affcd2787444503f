import { loadTsMorph } from "./deps.js";

/**
 * ts-morph, which the emitters fill the file templates with, on the compiler of src/package/deps.ts (loaded first,
 * by its path). A module of its own so that what imports only the compiler (the types printer, and the worker thread
 * that runs it: src/types-thread.ts) does not load ts-morph.
 */
export const tsMorph = loadTsMorph();
