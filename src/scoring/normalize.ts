/** CRMArena-Pro's `normalize_answer`, step by step (crm_sandbox/agents/utils.py). */
const PUNCTUATION = new Set([..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", "\u2018", "\u2019", "\u00b4", "`"]);

export function normalizeAnswer(text: string): string {
  let s = text.replaceAll("_", " ");
  s = s.toLowerCase();
  s = [...s].map((ch) => (PUNCTUATION.has(ch) ? " " : ch)).join("");
  s = s.replace(/\b(a|an|the)\b/g, " ");
  return s.split(/\s+/).filter(Boolean).join(" ");
}

/** Token F1 between a prediction and a ground truth, exactly as CRMArena-Pro computes it. */
export function tokenF1(prediction: string, groundTruth: string): number {
  const predicted = normalizeAnswer(prediction).split(" ").filter(Boolean);
  const expected = normalizeAnswer(groundTruth).split(" ").filter(Boolean);
  const counts = new Map<string, number>();
  for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      same++;
      counts.set(token, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / expected.length;
  return (2 * precision * recall) / (precision + recall);
}
