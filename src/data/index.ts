export * from "./calibration.js";
export * from "./fetch.js";
export * from "./id-secret.js";
export * from "./load.js";
export * from "./paths.js";
export * from "./shelf.js";
export * from "./twin-cache.js";
export * from "./twins.js";
