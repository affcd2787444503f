/**
 * "Did you mean …?" for misspelt commands, flags and names: the candidate closest to what was typed, when it is
 * close enough that the suggestion is likely right (a typo, a swapped pair, a missing or extra letter).
 */

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidates closest to `typed` (case-insensitive), best first: within a third of the longer word's length
 * (at least 1, at most 3 edits), or one of them starting with what was typed (`--verb` → `--verbose`).
 */
function closest(typed: string, candidates: Iterable<string>): string[] {
  return rank(typed, candidates).map((s) => s.candidate);
}

function rank(typed: string, candidates: Iterable<string>): { candidate: string; score: number }[] {
  const word = typed.toLowerCase();
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of new Set(candidates)) {
    const other = candidate.toLowerCase();
    const distance = editDistance(word, other);
    const limit = Math.min(3, Math.max(1, Math.floor(Math.max(word.length, other.length) / 3)));
    if (distance <= limit) scored.push({ candidate, score: distance });
    else if (word.length >= 3 && other.startsWith(word)) scored.push({ candidate, score: limit + 1 });
  }
  return scored.sort((a, b) => a.score - b.score || (a.candidate < b.candidate ? -1 : 1));
}

/** `did you mean X?` / `did you mean X or Y?` (the two best when they are equally close), or undefined. */
export function didYouMean(typed: string, candidates: Iterable<string>, show: (name: string) => string = (name) => name): string | undefined {
  const ranked = rank(typed, candidates);
  if (ranked.length === 0) return undefined;
  const top = ranked.filter((s, i) => i < 2 && s.score === ranked[0]!.score).map((s) => show(s.candidate));
  return `did you mean ${top.join(" or ")}?`;
}
