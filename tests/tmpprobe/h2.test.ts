import { it } from "vitest";
import { SAMPLE_ORG } from "../helpers.js";
it("x", () => { void SAMPLE_ORG; });
