export { openOrg, SqliteOrgStore, type OrgStore, type OpenOrgOptions } from "./store.js";
export { loadOrgImage, OrgLoadError, type OrgImage } from "./load.js";
export { introspectSchema, quoteIdent } from "./introspect.js";
export * from "./types.js";
export { runOrgTool, describeObjects, executeRequest, type OrgRequest, type QueryContext, type ToolOutcome } from "./tools.js";
export { runSoql, type SoqlOutcome } from "./soql/execute.js";
export { runSosl, type SoslOutcome } from "./sosl/search.js";
export { translateSoql } from "./soql/translate.js";
