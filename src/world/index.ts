export { buildBrief, EpisodeView, OrgView, type ShownEntropy, type WorldSettings } from "./view.js";
