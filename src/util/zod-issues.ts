/** What a failed parse says: zod's issues (or any schema's that reads like zod's). */
interface Issues {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
}

/** A schema at a boundary: a zod schema, or anything with zod's `safeParse`. */
interface Parser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: Issues };
}

/** The first issue of a failed parse: the field's path (`a.b.0`; empty at the root) and zod's message. */
export interface FirstIssue {
  readonly path: string;
  readonly message: string;
}

/** Every issue of a value against a schema, in order (none when it parses): for a boundary that lists its faults rather than throwing. */
export function issuesIn(schema: Parser<unknown>, value: unknown): readonly FirstIssue[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((each) => ({ path: each.path.map(String).join("."), message: each.message }));
}

export function firstIssue(error: Issues): FirstIssue {
  const issue = error.issues[0]!;
  return { path: issue.path.map(String).join("."), message: issue.message };
}

/** The project's one wording of a field's fault: `field 'a.b': message`; `root` names the field when the fault is the whole value's. */
export function describeIssue(issue: FirstIssue, root = ""): string {
  return `field '${issue.path || root}': ${issue.message}`;
}

/**
 * Parses a value at a boundary, or throws the error `fail` makes of its first issue's
 * description (`field 'a.b': message`), so that every boundary names the field the same way. A
 * boundary with words of its own builds them from the first issue (or from every issue, in order,
 * where it names them all).
 */
export function parseOrThrow<T>(schema: Parser<T>, value: unknown, fail: (description: string, issue: FirstIssue, issues: readonly FirstIssue[]) => Error, root = ""): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = firstIssue(parsed.error);
  throw fail(
    describeIssue(issue, root),
    issue,
    parsed.error.issues.map((each) => ({ path: each.path.map(String).join("."), message: each.message })),
  );
}
