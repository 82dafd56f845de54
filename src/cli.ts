#!/usr/bin/env node
import { buildProgram, errorText, exitCodeOf, tuneHeapGrowth } from "./cli/index.js";
import { describeError } from "./purple/index.js";

try {
  tuneHeapGrowth();
} catch (error) {
  process.stderr.write(`entropic-crmarena: ${describeError(error)}\n`);
  process.exit(1);
}

buildProgram()
  .parseAsync()
  .catch((error: unknown) => {
    process.stderr.write(`entropic-crmarena: ${errorText(error, describeError)}\n`);
    process.exit(exitCodeOf(error));
  });
