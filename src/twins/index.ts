export { type BuildTwinsOptions, buildTwins, type MissingTwin, placeNones, type TwinSet } from "./build.js";
export { TWIN_CATEGORIES } from "./categories/index.js";
export { defineTwinCategory, type TwinAnswer, type TwinCategory, type TwinContext, type TwinDraft } from "./category.js";
export { TwinKey } from "./key.js";
export { readDaysAgo, readPeriod, type TwinPeriod, withYear } from "./window.js";
export { generateTwinWorld, TwinWorld } from "./world.js";
