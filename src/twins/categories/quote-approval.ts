import { defineTwinCategory } from "../category.js";
import { PRICING_RULES, quoteTwin } from "./quote-rules.js";

/** Does a quote's pricing follow the discount approval articles? The answer is the article whose discount ceiling a line exceeds, or None. */
export const quoteApproval = defineTwinCategory({
  name: "quote_approval",
  twin: (context) => quoteTwin(context, PRICING_RULES),
});
