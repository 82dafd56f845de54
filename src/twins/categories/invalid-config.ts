import { defineTwinCategory } from "../category.js";
import { CONFIGURATION_RULES, quoteTwin } from "./quote-rules.js";

/** Is a quote's product setup against the configuration articles? The answer is the article whose minimum quantity or product exclusion the lines break, or None. */
export const invalidConfig = defineTwinCategory({
  name: "invalid_config",
  twin: (context) => quoteTwin(context, CONFIGURATION_RULES),
});
