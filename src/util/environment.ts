/**
 * The process's environment, read here and in src/cli/ only (tests/architecture.test.ts holds
 * every other module of src/ to it). Code below the command line takes a setting as a parameter;
 * where a default comes from the environment (a data path, a log format, the query processes), it
 * is read through this function, so that the environment's readers are one search away. A
 * dependency of an assessment (the id secret, the user's model, the purple's retry window) is never
 * read here: the command line resolves it and passes it in.
 */
export function environment(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * Bytes from a variable holding a positive number of megabytes (an operator's bound on a journal or
 * a cache), else `defaultMb`; a value that is no such number is refused, naming the variable.
 */
export function megabytesFromEnv(env: NodeJS.ProcessEnv, name: string, defaultMb: number): number {
  const raw = env[name]?.trim();
  const mb = raw ? Number(raw) : defaultMb;
  if (!Number.isFinite(mb) || mb <= 0) throw new Error(`${name} must be a positive number of megabytes (got ${JSON.stringify(raw)}); unset it for ${defaultMb}`);
  return Math.floor(mb * 1024 * 1024);
}
