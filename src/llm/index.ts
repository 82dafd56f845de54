export * from "./cache.js";
export * from "./config.js";
export * from "./provider.js";
export * from "./spend.js";
