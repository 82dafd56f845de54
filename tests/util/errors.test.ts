import { describe, expect, it } from "vitest";
import { RecordingFailure } from "../../src/assessment/run.js";
import { LlmPurpleConfigError } from "../../src/baselines/llm/config.js";
import { EXIT_CODES, errorText, exitCodeOf } from "../../src/cli/exit-codes.js";
import { ModelCallTooLarge, ModelSpendExceeded } from "../../src/llm/spend.js";
import { JournalBudgetError, JournalWriteError } from "../../src/log/journal.js";
import { PurpleHttpFault } from "../../src/purple/http.js";
import { PurpleError, PurpleGoneError } from "../../src/purple/index.js";
import { UserSimulatorError } from "../../src/users/user.js";
import { EntropicError, JsonBoundsError } from "../../src/util/index.js";

/** One of each of the project's error classes, with the name and code it is known by. */
const ERRORS: readonly [Error, string, string][] = [
  [new JournalWriteError("/tmp/j.jsonl", new Error("ENOSPC")), "JournalWriteError", "journal"],
  [new JournalBudgetError(1024), "JournalBudgetError", "journal"],
  [new RecordingFailure(new Error("disk full"), {} as never), "RecordingFailure", "journal"],
  [new JsonBoundsError("the request is refused: too deep"), "JsonBoundsError", "invalid_request"],
  [new UserSimulatorError("the simulated user's model replied with nothing"), "UserSimulatorError", "model"],
  [new ModelSpendExceeded("the run's model spend reached its cap"), "ModelSpendExceeded", "model"],
  [new ModelCallTooLarge("a model call is refused"), "ModelCallTooLarge", "model"],
  [new LlmPurpleConfigError("LLM purple configuration: no key"), "LlmPurpleConfigError", "config"],
  [new PurpleHttpFault("refused", "the purple agent refused the connection"), "PurpleHttpFault", "purple"],
  [new PurpleError("timeout", "the purple agent did not answer"), "PurpleError", "purple"],
  [new PurpleGoneError("the purple agent is gone"), "PurpleError", "purple"],
];

describe("one error base", () => {
  it.each(ERRORS.map(([error, name, code]) => ({ error, name, code })))("$name is an EntropicError of code $code, its name and message kept", ({ error, name, code }) => {
    expect(error).toBeInstanceOf(EntropicError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect((error as EntropicError).code).toBe(code);
    expect(error.message.length).toBeGreaterThan(0);
    expect(exitCodeOf(error)).toBe(EXIT_CODES[code as keyof typeof EXIT_CODES]);
  });

  it("keeps the cause and the fields of its own", () => {
    const cause = new Error("ENOSPC");
    const write = new JournalWriteError("/tmp/j.jsonl", cause);
    expect(write.cause).toBe(cause);
    expect(write.path).toBe("/tmp/j.jsonl");
    expect(write.message).toBe("cannot write the run's journal /tmp/j.jsonl: ENOSPC");
    const gone = new PurpleGoneError("gone");
    expect(gone).toBeInstanceOf(PurpleError);
    expect(gone.kind).toBe("unreachable");
    expect(gone.retryable).toBe(false);
    expect(new PurpleError("unreachable", "refused", true).retryable).toBe(true);
  });

  it("the command line prints an error's hint after its message, and exits 1 for an error of no kind", () => {
    expect(errorText(new EntropicError("config", "no tasks chosen", { hint: "pass --task-ids" }), (error) => (error as Error).message)).toBe("no tasks chosen (pass --task-ids)");
    expect(errorText(new PurpleError("protocol", "not A2A"), (error) => (error as Error).message)).toBe("not A2A");
    expect(exitCodeOf(new Error("plain"))).toBe(1);
  });
});
