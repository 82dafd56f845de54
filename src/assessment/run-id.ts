import { createHash } from "node:crypto";
import type { AssessmentConfig } from "./config.js";

/**
 * What identifies a purple: its agent card, less where it is reached (`url` and the interfaces'
 * URLs). Behind the AgentBeats gateway every shard reaches the purple through a proxy of its own
 * port, and a local purple starts on a free port each time, so an address names no purple; two
 * different purples behind one gateway have different cards (a description, skills, a version).
 */
export function purpleIdentityOf(card: Readonly<Record<string, unknown>>): string {
  const { url: _url, additionalInterfaces: _additional, supportedInterfaces: _supported, ...identity } = card;
  return createHash("sha256")
    .update(JSON.stringify(sortKeys(identity)))
    .digest("hex")
    .slice(0, 16);
}

/**
 * A run's id: the same for every shard of one run and for a repeat of the same request, so that
 * shards add up on the leaderboard and a restarted run finds its journal. It digests what makes
 * the run what it is (the purple's card identity, the config but its shard, the task file, this
 * green agent's version), never the address the purple is reached at; a config `run_id` wins
 * when given. Without a card identity (an in-process run) the participant URL stands in.
 */
export function runIdFor(input: { participantUrl: string; purpleIdentity?: string; config: AssessmentConfig; tasksSource: string; greenVersion: string }): string {
  if (input.config.run_id) return input.config.run_id;
  const { shard_index: _index, num_shards: _shards, concurrency: _concurrency, ...rest } = withoutSpendCaps(input.config);
  const material = JSON.stringify({
    purple: input.purpleIdentity ?? input.participantUrl,
    config: sortKeys(rest),
    tasks: input.tasksSource,
    green: input.greenVersion,
  });
  return `run-${createHash("sha256").update(material).digest("hex").slice(0, 16)}`;
}

/** The config less its model spend caps: how much a run may spend is not what it measures, so a larger cap continues the same run. */
export function withoutSpendCaps<T extends { max_model_calls?: number | undefined; max_model_chars?: number | undefined }>(
  config: T,
): Omit<T, "max_model_calls" | "max_model_chars"> {
  const { max_model_calls: _calls, max_model_chars: _chars, ...rest } = config;
  return rest;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      // Code-unit order: localeCompare would make a run's id depend on the machine's locale.
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => [key, sortKeys(item)]),
  );
}
