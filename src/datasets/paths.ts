import { fileURLToPath } from "node:url";

/** The package's data folder (the same relative place from `src/` and from `dist/`). */
export const DATA_DIR = fileURLToPath(new URL("../../data/", import.meta.url));
/** Where `data fetch` puts downloaded task sets (ENTROPIC_CACHE_DIR overrides it for the download). */
export const CACHE_DIR = `${DATA_DIR}cache/`;
