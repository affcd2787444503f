// Stand-in for the generated `server-validators.js` (src/emit/server-validators.ts), so this template runs: no
// generated validators, the closures validate alone.
export const requestValidators = () => [];
