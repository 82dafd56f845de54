import type { Row } from "../../sample/index.js";
import { addDays, addMonths, type Random } from "../../util/index.js";
import { defineTwinCategory } from "../category.js";
import { readDaysAgo } from "../window.js";
import type { TwinWorld } from "../world.js";
import { drawDay } from "./agent-ranking.js";

/** Where the query describes the product: "display the <description> (that) I purchased …". */
export const PRODUCT_PHRASE = /\b(?:display|show)(?:\s+me)?\s+(?:the|my)\s+(.+?)\s+(?=purchase\s+I\s+made|(?:that\s+)?I\s+(?:purchased|bought|ordered|requested))/i;
const CONTACT = /(Contact Id interacting:\s*)(003[A-Za-z0-9]{15})/;
const TODAY = /(Today's date:\s*)(\d{4}-\d{2}-\d{2})/;

/** Purchases planted per account with no contracted opportunity. */
const ORDERS_PER_ACCOUNT = 30;

/** The orders this category planted, in the order they were planted (its twins draw from them). */
const planted = new WeakMap<TwinWorld, Row[]>();

/**
 * Plants past purchases for contacts to refer to: activated orders of one to three products on
 * the accounts that have no opportunity with a contract, so the sales-amount policy (which
 * counts the orders of contracted opportunities' accounts) never sees them. The orders carry no
 * contract or opportunity link. Adds to Order and OrderItem only.
 */
function plantPurchases(world: TwinWorld, rng: Random): void {
  const contracted = new Set(
    world
      .rows("Opportunity")
      .filter((row) => row.ContractID__c)
      .map((row) => String(row.AccountId)),
  );
  const accounts = world.rows("Account").filter((account) => !contracted.has(String(account.Id)) && world.where("Contact", "AccountId", String(account.Id)).length > 0);
  const entries = world.rows("PricebookEntry");
  const orders: Row[] = [];
  for (const account of accounts) {
    for (let i = 0; i < ORDERS_PER_ACCOUNT; i++) {
      const order = world.add("Order", {
        Id: world.newId("Order"),
        AccountId: account.Id,
        Status: "Activated",
        EffectiveDate: drawDay(rng, "2020-01-01", "2024-11-30"),
        Pricebook2Id: entries[0]?.Pricebook2Id ?? null,
        OwnerId: rng.pick(world.facts.salesAgents),
      });
      orders.push(order);
      for (const entry of rng.sample(entries, rng.int(1, 3))) {
        world.add("OrderItem", {
          Id: world.newId("OrderItem"),
          OrderId: order.Id,
          Product2Id: entry.Product2Id,
          Quantity: rng.int(1, 20),
          UnitPrice: Number(entry.UnitPrice),
          PriceBookEntryId: entry.Id,
        });
      }
    }
  }
  planted.set(world, orders);
}

/** The products of the contact's account's activated orders effective on `day`. */
function productsBoughtOn(world: TwinWorld, contactId: string, day: string): string[] {
  const accountId = world.byId(contactId)?.AccountId;
  if (!accountId) return [];
  return world
    .where("Order", "AccountId", String(accountId))
    .filter((order) => order.Status === "Activated" && String(order.EffectiveDate).slice(0, 10) === day)
    .flatMap((order) => world.where("OrderItem", "OrderId", String(order.Id)).map((item) => String(item.Product2Id)));
}

/**
 * The product a contact means: among the products of their account's orders effective on the
 * day the query points at, the one of the described kind (the generator's kind phrase, which
 * the product's Description states). Null when none of that day's purchases is of that kind,
 * undefined when several are.
 */
export function purchasedProduct(world: TwinWorld, contactId: string, day: string, kind: string): string | null | undefined {
  const matches = [...new Set(productsBoughtOn(world, contactId, day).filter((productId) => world.facts.productKind.get(productId)?.toLowerCase() === kind.toLowerCase()))];
  if (matches.length === 0) return null;
  return matches.length === 1 ? matches[0]! : undefined;
}

const titleCase = (text: string) => text.replace(/(^|[\s-])([a-z])/g, (_, gap: string, letter: string) => gap + letter.toUpperCase());

/** The today from which the query's phrase points back to `day`, or undefined when none does (a month back from the 31st). */
function todayFor(query: string, sourceToday: string, day: string): string | undefined {
  const back = readDaysAgo(query, sourceToday);
  if (!back) return undefined;
  const gap = Math.round((Date.parse(`${sourceToday}T00:00:00Z`) - Date.parse(`${back.day}T00:00:00Z`)) / 86_400_000);
  const monthly = /month/i.test(back.phrase);
  const today = monthly ? addMonths(day, Math.round(gap / 30)) : addDays(day, gap);
  return readDaysAgo(query, today)?.day === day ? today : undefined;
}

/**
 * The twin keeps the query's wording and its "days back" phrase; it names another contact (one
 * whose account has planted purchases), a today that phrase points back from to one of their
 * purchase days, and describes a product by its kind: one bought that day, or for a None twin
 * one that was not.
 */
export const namedEntityDisambiguation = defineTwinCategory({
  name: "named_entity_disambiguation",
  enrich: plantPurchases,
  twin: ({ source, world, rng, wantNone }) => {
    const phrase = PRODUCT_PHRASE.exec(source.query);
    const sourceToday = TODAY.exec(source.metadata.required)?.[2];
    const orders = planted.get(world);
    if (!phrase || !sourceToday || !CONTACT.test(source.metadata.required) || !orders?.length) return undefined;
    const order = rng.pick(orders);
    const day = String(order.EffectiveDate);
    const today = todayFor(source.query, sourceToday, day);
    if (!today || today > "2024-12-31") return undefined;
    const contact = rng.pick(world.where("Contact", "AccountId", String(order.AccountId)));
    if (!contact) return undefined;
    const bought = new Set(productsBoughtOn(world, String(contact.Id), day));
    const candidates = [...world.facts.productKind.keys()].filter((productId) => bought.has(productId) !== wantNone);
    if (candidates.length === 0) return undefined;
    const kind = world.facts.productKind.get(rng.pick(candidates))!;
    const answer = purchasedProduct(world, String(contact.Id), day, kind);
    if (answer === undefined) return undefined;
    const described = /^[A-Z]/.test(phrase[1]!) && /\s[A-Z]/.test(phrase[1]!) ? titleCase(kind) : kind;
    const at = phrase.index + phrase[0].length - phrase[1]!.length;
    const query = source.query.slice(0, at - 1) + source.query.slice(at - 1).replace(phrase[1]!, described);
    const required = source.metadata.required.replace(CONTACT, (_, label: string) => `${label}${contact.Id}`).replace(TODAY, (_, label: string) => `${label}${today}`);
    return { query, required, answer: [answer] };
  },
});
