export { openOrg, SqliteOrgStore, type OrgStore, type OpenOrgOptions } from "./store.js";
export { loadOrgImage, OrgLoadError, type OrgImage } from "./load.js";
export { introspectSchema, quoteIdent } from "./introspect.js";
export * from "./types.js";
export { runOrgTool, describeObjects, type OrgRequest, type ToolOutcome } from "./tools.js";
