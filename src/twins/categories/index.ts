import type { TwinCategory } from "../category.js";
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
import { topIssueIdentification } from "./top-issue-identification.js";
import { transferCount } from "./transfer-count.js";
import { wrongStageRectification } from "./wrong-stage-rectification.js";

/** Every category's twin maker, in dataset order: a new category is one file here and one line in this list. */
export const TWIN_CATEGORIES: readonly TwinCategory[] = [
  leadQualification,
  monthlyTrendAnalysis,
  activityPriority,
  topIssueIdentification,
  salesInsightMining,
  confidentialCompanyKnowledge,
  invalidConfig,
  knowledgeQa,
  salesAmountUnderstanding,
  handleTime,
  conversionRateComprehension,
  bestRegionIdentification,
  transferCount,
  wrongStageRectification,
  policyViolationIdentification,
  caseRouting,
  privateCustomerInformation,
  leadRouting,
  quoteApproval,
  internalOperationData,
  namedEntityDisambiguation,
  salesCycleUnderstanding,
];
