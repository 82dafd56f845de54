import { groupBy, type OrgDraw, phone } from "./org-draw.js";
import type { Row } from "./org-schema.js";
import * as V from "./vocabulary.js";

/** The org's users, split into service and sales agents, and the sales territories the sales agents cover. */
export interface Staff {
  readonly serviceAgents: readonly string[];
  readonly salesAgents: readonly string[];
}

/** Users, territories and the sales agents' territory assignments. */
export function generateStaff({ rng, t, id, count, personName }: OrgDraw): Staff {
  for (let i = 0; i < count("User", 24); i++) {
    const [first, last] = personName();
    const alias = `${first.slice(0, 1)}${last.slice(0, 4)}${i}`.toLowerCase();
    t.User!.push({
      Id: id("User"),
      FirstName: first,
      LastName: last,
      Email: `${alias}@entropic-crm.example`,
      Phone: phone(rng),
      Username: `${alias}@entropic-crm.example.org`,
      Alias: alias.slice(0, 8),
      LanguageLocaleKey: "en_US",
      EmailEncodingKey: "UTF-8",
      TimeZoneSidKey: "America/Los_Angeles",
      LocaleSidKey: "en_US",
    });
  }
  const users = t.User!.map((user) => user.Id as string);
  const serviceAgents = users.slice(0, Math.max(8, Math.round(users.length * 0.1)));
  const salesAgents = users.slice(serviceAgents.length);

  const stateGroups = V.US_STATES.map((state, i) => ({ state, group: i % V.TERRITORY_NAMES.length }));
  V.TERRITORY_NAMES.forEach((name, group) => {
    const states = rng.shuffle(stateGroups.filter((entry) => entry.group === group).map((entry) => entry.state));
    t.Territory2!.push({ Id: id("Territory2"), Name: name, Description: states.join(", ") });
  });
  salesAgents.forEach((userId, i) => {
    t.UserTerritory2Association!.push({ Id: id("UserTerritory2Association"), UserId: userId, Territory2Id: t.Territory2![i % t.Territory2!.length]!.Id as string });
  });
  return { serviceAgents, salesAgents };
}

/** The customers: accounts, and their contacts. */
export interface Customers {
  readonly accounts: readonly Row[];
  readonly contactsByAccount: ReadonlyMap<string, Row[]>;
}

/** Accounts, then contacts, each at a random account. */
export function generateCustomers({ rng, t, id, count, personName }: OrgDraw): Customers {
  for (let i = 0; i < count("Account", 40); i++) {
    const name = `${rng.pick(V.COMPANY_WORDS_A)} ${rng.pick(V.COMPANY_WORDS_B)} ${rng.pick(V.COMPANY_WORDS_C)}`;
    t.Account!.push({
      Id: id("Account"),
      Name: name,
      Phone: phone(rng),
      Industry: rng.pick(V.INDUSTRIES),
      Description: `${name} builds products for the ${rng.pick(V.PRODUCT_DOMAINS)} market.`,
      NumberOfEmployees: rng.int(20, 5000),
      ShippingState: rng.pick(V.US_STATES),
    });
  }
  const accounts = t.Account!;
  for (let i = 0; i < count("Contact", 120); i++) {
    const [first, last] = personName();
    const account = rng.pick(accounts);
    t.Contact!.push({
      Id: id("Contact"),
      FirstName: first,
      LastName: last,
      Email: `${first}.${last}${i}@${String(account.Name).split(" ")[0]!.toLowerCase()}.example`.toLowerCase(),
      AccountId: account.Id as string,
    });
  }
  return { accounts, contactsByAccount: groupBy(t.Contact!, "AccountId") };
}

/** A contact of `account`, or any contact when it has none. */
export function contactOf({ rng, t }: OrgDraw, customers: Customers, account: Row): Row {
  return rng.pick(customers.contactsByAccount.get(account.Id as string) ?? t.Contact!);
}
