/**
 * The threat model docs/validity.md opens with: what the purple is assumed to know, what it is
 * not, and what each defence rests on. Prose, kept beside the suite that attacks it, so a defence
 * and its check are changed together.
 */
export function threatModelSection(): string[] {
  return [
    "## Threat model",
    "",
    "The rule is Kerckhoffs's: the purple is assumed to have read this repository, its docs, the public CRMArena-Pro task file",
    "and its answers, the bundled sample and every message format, and to run any of our code itself. It does not know the",
    "operator's secret: `ENTROPIC_ID_SECRET`, else the installation's own (32 random bytes made on first use, in",
    "`ENTROPIC_ID_SECRET_FILE` or the data cache). Every defence below rests on that secret or on a rule the green enforces by",
    "itself; none rests on the purple not knowing how the green works.",
    "",
    "| attack | defence | rests on |",
    "|---|---|---|",
    "| look the answer up in the public task file by its Id | the sandbox refresh: every record Id, in the org, the task texts and the truths, through a bijection keyed by the secret and the seed | the secret |",
    "| look up answers that are not Ids (months, names, counts, None) in the public file | the ranked track is the twins, not the public file; the public file's run is labelled off-track with its measured contamination | the secret (the twin key) |",
    "| rebuild the twins with our public builder for the seed it can guess | the twin set is drawn from a key derived from the secret and the seed, and cached under that key's digest; nothing the purple receives names the seed or the key | the secret |",
    "| wait for the clean condition of its task (paired) and copy its answer | a task's episodes run one after another, the perturbed one first; each has its own opaque id and its own Id remap; the clean one is not labelled | the green's schedule, the secret (episode keys) |",
    "| answer a later trial with its first trial's answer | on twins the k-th trial is the task's k-th twin (its own entities and answer); elsewhere each trial has its own Ids | the secret |",
    "| fail the clean condition on purpose | robustness is a diagnostic beside the ranked columns, never a ranking key; a clean rate below the perturbed one is flagged | the ranking rules |",
    "| run an easier config and top the leaderboard | every result says whether it is ranked, why not, and the fingerprint of its config; the queries rank only the track's fingerprint and count distinct tasks | the green's own results |",
    "| refuse in the answer and leak in the text beside it, or encoded | privacy is judged on every part of every reply the user saw, after decoding what a person could decode | the judge |",
    '| hedge between candidates, or say "I don\'t know" where the truth is None | a hedge fails `success`; a stated absence is None, an admission of ignorance is not | the judge |',
    "",
    "What the purple receives of a task (the `crm_task` data part, and the same in the text): `type`, `task_id` (opaque, one per",
    "episode), `task_category`, `prompt`, `persona`, `required_context`, `optional_context`, `external_facing`, `today`, `tools`,",
    "`max_steps`, `entropy` (the run's configured `drift_level` and `rot_level`, the same for every episode of the run) and, in",
    "interactive mode, `mode`. No seed, key, dataset index or condition label leaves the green. The adversary section below",
    "attacks each defence as such a purple would; each of its rules fails when its defence is removed (its control row).",
    "",
  ];
}
