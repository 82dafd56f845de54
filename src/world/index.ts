export { buildBrief, OrgView, type WorldSettings } from "./view.js";
