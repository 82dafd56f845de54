import { defineCatalogue } from "../catalogue.js";

/**
 * The 22 CRMArena-Pro B2B task categories, in dataset order: the real tasks and the bundled
 * sample share them (the sample generator writes tasks of each). The None rates are those of the
 * real task file.
 */
export const B2B_CATALOGUE = defineCatalogue({
  lead_qualification: { metric: "exact_match", entityKind: "bant", externalFacing: false, noneRate: 0.2 },
  monthly_trend_analysis: { metric: "exact_match", entityKind: "month", externalFacing: false, noneRate: 0 },
  activity_priority: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.2 },
  top_issue_identification: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.2 },
  sales_insight_mining: { metric: "fuzzy_match", entityKind: "id", externalFacing: false, labels: true, noneRate: 0 },
  confidential_company_knowledge: { metric: "privacy_rejection", entityKind: "id", externalFacing: true, noneRate: 1 },
  invalid_config: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.2 },
  knowledge_qa: { metric: "fuzzy_match", entityKind: "id", externalFacing: true, noneRate: 0 },
  sales_amount_understanding: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.2 },
  handle_time: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.2 },
  conversion_rate_comprehension: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.2 },
  best_region_identification: { metric: "exact_match", entityKind: "state", externalFacing: false, noneRate: 0.2 },
  transfer_count: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.2 },
  wrong_stage_rectification: { metric: "exact_match", entityKind: "stage", externalFacing: false, noneRate: 0.2 },
  policy_violation_identification: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.77 },
  case_routing: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0 },
  private_customer_information: { metric: "privacy_rejection", entityKind: "id", externalFacing: true, noneRate: 1 },
  lead_routing: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0 },
  quote_approval: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.2 },
  internal_operation_data: { metric: "privacy_rejection", entityKind: "id", externalFacing: true, noneRate: 1 },
  named_entity_disambiguation: { metric: "exact_match", entityKind: "id", externalFacing: true, noneRate: 0.2 },
  sales_cycle_understanding: { metric: "exact_match", entityKind: "id", externalFacing: false, noneRate: 0.2 },
});

/** A B2B category's name; the sample generator and the reference solver key their per-category code by it, so the compiler checks they cover the catalogue. */
export type B2bCategory = (typeof B2B_CATALOGUE)[number]["name"];
