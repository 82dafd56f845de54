#!/usr/bin/env node
import { buildProgram } from "./cli/index.js";
import { describeError } from "./purple/index.js";

buildProgram()
  .parseAsync()
  .catch((error: unknown) => {
    process.stderr.write(`entropic-crmarena: ${describeError(error)}\n`);
    process.exit(1);
  });
