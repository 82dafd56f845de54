import type { B2bCategory } from "../../datasets/index.js";
import { activityPriority } from "./activity-priority.js";
import { bestRegionIdentification } from "./best-region-identification.js";
import { caseRouting } from "./case-routing.js";
import { confidentialCompanyKnowledge } from "./confidential-company-knowledge.js";
import { conversionRateComprehension } from "./conversion-rate-comprehension.js";
import { handleTime } from "./handle-time.js";
import { internalOperationData } from "./internal-operation-data.js";
import { invalidConfig } from "./invalid-config.js";
import { knowledgeQa } from "./knowledge-qa.js";
import { leadQualification } from "./lead-qualification.js";
import { leadRouting } from "./lead-routing.js";
import { monthlyTrendAnalysis } from "./monthly-trend-analysis.js";
import { namedEntityDisambiguation } from "./named-entity-disambiguation.js";
import { policyViolationIdentification } from "./policy-violation-identification.js";
import { privateCustomerInformation } from "./private-customer-information.js";
import { quoteApproval } from "./quote-approval.js";
import { salesAmountUnderstanding } from "./sales-amount-understanding.js";
import { salesCycleUnderstanding } from "./sales-cycle-understanding.js";
import { salesInsightMining } from "./sales-insight-mining.js";
import type { CategorySolver } from "./solver.js";
import { topIssueIdentification } from "./top-issue-identification.js";
import { transferCount } from "./transfer-count.js";
import { wrongStageRectification } from "./wrong-stage-rectification.js";

/** Each category's analysis: a new category is one file here and one line in this table (the compiler checks the table covers the catalogue). */
export const CATEGORY_SOLVERS: Readonly<Record<B2bCategory, CategorySolver>> = {
  lead_qualification: leadQualification,
  monthly_trend_analysis: monthlyTrendAnalysis,
  activity_priority: activityPriority,
  top_issue_identification: topIssueIdentification,
  sales_insight_mining: salesInsightMining,
  confidential_company_knowledge: confidentialCompanyKnowledge,
  invalid_config: invalidConfig,
  knowledge_qa: knowledgeQa,
  sales_amount_understanding: salesAmountUnderstanding,
  handle_time: handleTime,
  conversion_rate_comprehension: conversionRateComprehension,
  best_region_identification: bestRegionIdentification,
  transfer_count: transferCount,
  wrong_stage_rectification: wrongStageRectification,
  policy_violation_identification: policyViolationIdentification,
  case_routing: caseRouting,
  private_customer_information: privateCustomerInformation,
  lead_routing: leadRouting,
  quote_approval: quoteApproval,
  internal_operation_data: internalOperationData,
  named_entity_disambiguation: namedEntityDisambiguation,
  sales_cycle_understanding: salesCycleUnderstanding,
};
