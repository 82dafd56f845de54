import { generateCatalogue, generateContractsAndOrders } from "./org-catalogue.js";
import { orgDraw } from "./org-draw.js";
import { generateKnowledge } from "./org-knowledge.js";
import { generateCustomers, generateStaff } from "./org-people.js";
import { generateEvents, generateLeads, generateOpportunities } from "./org-sales.js";
import type { SampleOrg } from "./org-schema.js";
import { generateService } from "./org-service.js";

/**
 * Generates a consistent CRM org with the real schema. `scale` 1 gives the real database's
 * row counts; smaller scales keep enough records in the task-bearing objects for every category.
 *
 * One object family after another draws from the one random stream, so this order is part of
 * every generated org: the sample's files and every twin set (moving a call, or a draw inside a
 * family, changes them; tests/sample/org.test.ts pins it, and the twins' TWINS_VERSION must follow).
 */
export function generateOrg(seed: number | string, scale: number): SampleOrg {
  const draw = orgDraw(seed, scale);
  const staff = generateStaff(draw);
  const customers = generateCustomers(draw);
  const catalogue = generateCatalogue(draw);
  generateContractsAndOrders(draw, customers.accounts, catalogue, staff.salesAgents);
  const service = generateService(draw, staff, customers, catalogue);
  const knowledge = generateKnowledge(draw, catalogue.sellable);
  const leadUnmet = generateLeads(draw, customers, staff.salesAgents);
  const opportunities = generateOpportunities(draw, customers, catalogue, staff.salesAgents, knowledge.rules);
  generateEvents(draw);
  return {
    tables: draw.t,
    facts: {
      serviceAgents: staff.serviceAgents,
      salesAgents: staff.salesAgents,
      leadUnmet,
      ...opportunities,
      ...service,
      productKind: catalogue.productKind,
      ...knowledge,
    },
  };
}
