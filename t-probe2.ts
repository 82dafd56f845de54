import { planEntropy, summarisePlan } from "./src/entropy/index.js";
import { openOrg } from "./src/org/index.js";
const org = openOrg("data/sample/org", { workers: 1 });
const plan = planEntropy({ seed: 2, drift: "low", rot: "low", schema: org.schema, tasks: [], library: [], rows: (o) => org.rows(o) });
for (const k of summarisePlan(plan).kinds) console.log(k.kind, k.summary, k.renamed.slice(0, 20), k.deprecated);
await org.close();
