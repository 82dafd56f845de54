#!/usr/bin/env node
import { buildProgram, errorText, exitCodeOf, tuneHeapGrowth } from "./cli/index.js";
import { describeError } from "./purple/index.js";

try {
  tuneHeapGrowth();
} catch (error) {
  process.stderr.write(`entropic-crmarena: ${describeError(error)}\n`);
  process.exit(1);
}

// Only the named command's module is loaded (a server needs none of the others).
buildProgram(process.argv.slice(2))
  .then((program) => program.parseAsync())
  .catch((error: unknown) => {
    process.stderr.write(`entropic-crmarena: ${errorText(error, describeError)}\n`);
    process.exit(exitCodeOf(error));
  });
