export { OrgView, buildBrief, type WorldSettings } from "./view.js";
