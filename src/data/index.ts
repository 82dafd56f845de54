export * from "./fetch.js";
export * from "./load.js";
export * from "./paths.js";
