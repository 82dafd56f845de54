export { B2B_CATALOGUE, type B2bCategory } from "./b2b/categories.js";
export {
  type CategoryCatalogue,
  type CategorySpec,
  type CategorySpecInput,
  CategorySpecSchema,
  defineCatalogue,
  type EntityKind,
  EntityKindSchema,
  isPrivacyCategory,
} from "./catalogue.js";
export { chooseDataset, DatasetChoiceError, datasetCalled, orgTypeOf } from "./choose.js";
export { CRMARENA_PRO_B2B } from "./crmarena-pro-b2b/index.js";
export { CRMARENA_PRO_B2B_INTERACTIVE } from "./crmarena-pro-b2b-interactive/index.js";
export { CACHE_DIR, DATA_DIR } from "./paths.js";
export { BUILT_IN_DATASETS, CUSTOM_DATASET, CUSTOM_ORG_TYPE, categorySpec, datasetKinds, datasetNamed, datasets, FILE_DATASETS, registerDataset } from "./registry.js";
export { SAMPLE } from "./sample/index.js";
export { type DatasetSpec, DatasetSpecSchema, type FetchSources, FetchSourcesSchema } from "./spec.js";
export { TWINS, TWINS_CACHE_DIR, TWINS_CALIBRATION_FILE, TWINS_VERSION } from "./twins/index.js";
