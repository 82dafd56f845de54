import type { Row } from "../../sample/index.js";
import type { Random } from "../../util/index.js";
import { readPeriod, type TwinPeriod, withYear } from "../window.js";
import type { TwinWorld } from "../world.js";

/**
 * What the service categories' twins share (monthly trend, top issue, best region, handle time,
 * transfer count, case routing): the real task's "Today's date" and time window, redrawn on the
 * twin org's timeline, and the case records as the answer programs read them.
 */

const TODAY_LINE = /(Today's date:\s*)(\d{4}-\d{2}-\d{2})/;
const FIRST_DAY = Date.UTC(2020, 0, 1);
const LAST_DAY = Date.UTC(2024, 11, 31);

export function sourceToday(text: string): string | undefined {
  return TODAY_LINE.exec(text)?.[2];
}

/** Replaces every "Today's date: ..." with the twin's. */
export function withToday(text: string, today: string): string {
  return text.replace(new RegExp(TODAY_LINE.source, "g"), (_, label: string) => `${label}${today}`);
}

/** A today on the twin org's timeline (2020-01-01 .. 2024-12-31). */
export function drawToday(rng: Random): string {
  const day = rng.int(0, Math.round((LAST_DAY - FIRST_DAY) / 86_400_000));
  return new Date(FIRST_DAY + day * 86_400_000).toISOString().slice(0, 10);
}

export interface DrawnWindow {
  readonly query: string;
  readonly today: string;
  readonly period: TwinPeriod;
}

/**
 * The twin's today and window: a fresh today; a named period with a year ("fall of 2021") moves
 * to a drawn year, a relative one ("past 3 quarters") follows the new today. A None twin is a
 * window with no records, as the real ones are (a month after today, a span before the records
 * begin): its named year may fall a year outside the timeline, its today in the timeline's first
 * weeks. `firstYearShare` draws that share of todays in the first year, whose windows reach back
 * before the records and so hold fewer of them (fewer agents, fewer ties). Undefined when the source names no window this reading understands.
 */
export function drawWindow(query: string, rng: Random, wantNone = false, firstYearShare = 0): DrawnWindow | undefined {
  const today =
    wantNone && rng.chance(0.5)
      ? `2020-01-${String(rng.int(1, 20)).padStart(2, "0")}`
      : rng.chance(firstYearShare)
        ? `2020-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`
        : drawToday(rng);
  const period = readPeriod(readable(query), today);
  if (!period) return undefined;
  if (period.year === undefined) return { query, today, period };
  const year = wantNone ? rng.int(2019, 2025) : rng.int(2020, 2024);
  // The named phrase is the source's own words (the rewording touches only relative spans), so it sits verbatim in the query.
  const at = query.indexOf(period.phrase);
  const phrase = otherNamedPeriod(period.phrase, rng);
  const renamed = query.slice(0, at) + phrase + query.slice(at + period.phrase.length);
  const moved = withYear(renamed, { ...period, phrase, at }, year);
  const reread = readPeriod(readable(moved), today);
  return reread ? { query: moved, today, period: reread } : undefined;
}

const NAMED_UNITS: readonly (readonly string[])[] = [
  ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
  ["Winter", "Spring", "Summer", "Fall"],
  ["first", "second", "third", "fourth"],
  ["Q1", "Q2", "Q3", "Q4"],
];

/** The named period with its month, season or quarter redrawn (its case kept: "fall" stays lower-case). */
function otherNamedPeriod(phrase: string, rng: Random): string {
  for (const names of NAMED_UNITS) {
    const found = names.find((name) => new RegExp(`\\b${name}\\b`, "i").test(phrase));
    if (!found) continue;
    const next = rng.pick(names);
    return phrase.replace(new RegExp(`\\b${found}\\b`, "i"), (seen) => (seen[0] === seen[0]?.toLowerCase() ? next.toLowerCase() : next));
  }
  return phrase;
}

/** Phrasings the shared window reading does not take, said the way it does (only for reading: the twin keeps the source's words). */
function readable(query: string): string {
  return query.replace(/\bhalf-year\b/gi, "6 months").replace(/\b(within|in) the (last|past) (\d+|[a-z]+) (where|when)\b/gi, "$1 the $2 $3 months $4");
}

/** The day part of a datetime or date value. */
export const dayOf = (value: unknown): string => String(value ?? "").slice(0, 10);

export const inPeriod = (value: unknown, period: { start: string; end: string }): boolean => {
  const day = dayOf(value);
  return day !== "" && day >= period.start && day <= period.end;
};

/** Days between two datetimes. */
export function durationDays(from: unknown, to: unknown): number {
  return (Date.parse(`${String(to).slice(0, 19)}Z`) - Date.parse(`${String(from).slice(0, 19)}Z`)) / 86_400_000;
}

/** Cases created inside the period (by the case's CreatedDate). */
export function casesCreatedIn(world: TwinWorld, period: { start: string; end: string }): Row[] {
  return world.rows("Case").filter((row) => inPeriod(row.CreatedDate, period));
}

/** The product a case is about: its order item's product. */
export function productOfCase(world: TwinWorld, row: Row): string | undefined {
  const item = world.byId(row.OrderItemId__c as string | null);
  return item ? String(item.Product2Id) : undefined;
}

/** The one key whose value is best; undefined on a tie for the best or when there is no key. */
export function uniqueBest(values: ReadonlyMap<string, number>, highest: boolean): string | undefined {
  let best: string | undefined;
  let bestValue = 0;
  let tied = false;
  for (const [key, value] of values) {
    if (best === undefined || (highest ? value > bestValue : value < bestValue)) {
      best = key;
      bestValue = value;
      tied = false;
    } else if (Math.abs(value - bestValue) < 1e-9) tied = true;
  }
  return tied ? undefined : best;
}

/** Does the task ask for the highest value (longest, most, slowest) rather than the lowest? */
export function asksHighest(query: string): boolean {
  const lower = query.toLowerCase();
  const high = /\b(highest|longest|maximum|max|slowest|most|greatest|largest|biggest|top)\b/.exec(lower);
  const low = /\b(lowest|shortest|minimum|min|quickest|fastest|smallest|least|fewest|best)\b/.exec(lower);
  if (high && low) return high.index < low.index;
  return Boolean(high);
}

const SMALL_NUMBERS: Record<string, number> = { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

/**
 * The "managed more than N cases" filter: agents must have strictly more than the returned number
 * of cases. A task naming no number ("managed cases") asks for at least one; "multiple cases"
 * for more than one.
 */
export function casesAbove(query: string): number {
  const lower = query.toLowerCase();
  const match = /\b(more than|over|above|greater than|exceeding|at least)\s+(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)\b/.exec(lower);
  if (!match) return /\bmultiple cases\b/.test(lower) ? 1 : 0;
  const value = /^\d+$/.test(match[2] as string) ? Number(match[2]) : (SMALL_NUMBERS[match[2] as string] as number);
  return match[1] === "at least" ? value - 1 : value;
}

/** Owner Assignment history rows dated inside the period. */
export function ownerAssignmentsIn(world: TwinWorld, period: { start: string; end: string }): Row[] {
  return world.where("CaseHistory__c", "Field__c", "Owner Assignment").filter((row) => inPeriod(row.CreatedDate, period));
}

/** Per agent, the distinct cases assigned to them (first owner or transferred to). */
export function managedCases(assignments: readonly Row[]): Map<string, Set<string>> {
  const managed = new Map<string, Set<string>>();
  for (const row of assignments) {
    const agent = String(row.NewValue__c ?? "");
    if (!agent) continue;
    const cases = managed.get(agent) ?? new Set<string>();
    cases.add(String(row.CaseId__c));
    managed.set(agent, cases);
  }
  return managed;
}

const PRODUCT_WORD = /[a-z][A-Z]|-[A-Z]|^[A-Z]{2}/;
const CAPITALISED_RUN = /[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?:\s+[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)*/g;

/**
 * The product name a real task names: the first run of capitalised words holding a word of a
 * product name's shape (CamelCase, a capitalised hyphen part, or an acronym: "QuantumPCB
 * Modeler", "AI Cirku-Tech", "DevVision IDE"), without the plain words that open the run.
 */
export function sourceProductName(text: string): string | undefined {
  for (const match of text.matchAll(CAPITALISED_RUN)) {
    const words = match[0].split(/\s+/);
    const first = words.findIndex((word) => PRODUCT_WORD.test(word));
    if (first < 0) continue;
    // An acronym right before a CamelCase word belongs to the name ("AI DesignShift"); a plain capitalised word ("The", "Is") does not.
    return words.slice(first).join(" ");
  }
  return undefined;
}

const PRODUCT_ID = /\b01t[A-Za-z0-9]{15}\b/g;

/** The source's product name and Id replaced by the twin's. */
export function withProduct(text: string, sourceName: string, product: Row): string {
  return text.split(sourceName).join(String(product.Name)).replace(PRODUCT_ID, String(product.Id));
}

const casesByProductCache = new WeakMap<TwinWorld, Map<string, Row[]>>();

/** Per product Id, its cases (through the case's order item); built once per world. */
export function casesByProduct(world: TwinWorld): ReadonlyMap<string, Row[]> {
  let index = casesByProductCache.get(world);
  if (!index) {
    index = new Map();
    for (const row of world.rows("Case")) {
      const product = productOfCase(world, row);
      if (!product) continue;
      index.set(product, [...(index.get(product) ?? []), row]);
    }
    casesByProductCache.set(world, index);
  }
  return index;
}

const ENRICH_CASES = 360;

/**
 * More service history for the agent metrics: the base org's ~150 cases give most agents one or
 * two cases a year and a transfer or none, so "the agent with the fewest transfers" is nearly
 * always a tie. These cases follow the generator's shape (an order item's product and account, an
 * issue, Case Creation / Owner Assignment / Case Closed history) with a skewed workload across the
 * service agents (the owners of the base cases), so agents differ. They are new Case and
 * CaseHistory__c rows only, owned by the service categories; no other category's answer reads them.
 */
export function enrichServiceCases(world: TwinWorld, rng: Random): void {
  const agents = [...new Set(world.rows("Case").map((row) => String(row.OwnerId)))].sort();
  const weights = rng.shuffle(agents).map((agent, rank) => ({ agent, weight: 1 / (rank + 1) }));
  const total = weights.reduce((sum, entry) => sum + entry.weight, 0);
  const pickAgent = (except: readonly string[]): string => {
    for (;;) {
      let at = rng.float() * total;
      let chosen = weights[weights.length - 1]?.agent as string;
      for (const entry of weights) {
        at -= entry.weight;
        if (at <= 0) {
          chosen = entry.agent;
          break;
        }
      }
      if (!except.includes(chosen)) return chosen;
    }
  };
  // Agents differ in how often they pass a case on, so transfer counts spread out.
  const propensity = new Map(agents.map((agent) => [agent, 0.05 + 0.7 * rng.float()]));
  const items = [...casesByProduct(world).keys()].flatMap((product) => world.where("OrderItem", "Product2Id", product));
  const issues = world.rows("Issue__c");
  if (agents.length < 3 || items.length === 0 || issues.length === 0) return;
  // Added at the end: every add drops the world's indexes, which the loop's lookups use.
  const added: Row[] = [];
  const history: Row[] = [];
  for (let i = 0; i < ENRICH_CASES; i++) {
    const item = rng.pick(items);
    const order = world.byId(item.OrderId as string);
    const contacts = world.where("Contact", "AccountId", order?.AccountId as string);
    const issue = rng.pick(issues);
    const product = world.byId(item.Product2Id as string);
    const createdDay = new Date(Date.UTC(2020, 0, 1) + rng.int(0, 1815) * 86_400_000).toISOString().slice(0, 10);
    const created = `${createdDay}T${String(rng.int(8, 16)).padStart(2, "0")}:${String(rng.int(0, 59)).padStart(2, "0")}:${String(rng.int(0, 59)).padStart(2, "0")}.000+0000`;
    const closed = rng.chance(0.8);
    const closedDay = new Date(Date.parse(`${createdDay}T00:00:00Z`) + rng.int(0, 25) * 86_400_000).toISOString().slice(0, 10);
    const closedAt = closed ? `${closedDay}T${String(rng.int(17, 20))}:${String(rng.int(0, 59)).padStart(2, "0")}:00.000+0000` : null;
    const owners = [pickAgent([])];
    if (rng.chance(propensity.get(owners[0] as string) ?? 0.3)) owners.push(pickAgent(owners));
    if (owners.length === 2 && rng.chance(0.25)) owners.push(pickAgent(owners));
    const caseId = world.newId("Case");
    added.push({
      Id: caseId,
      Priority: rng.pick(["Low", "Medium", "High"]),
      Subject: `${String(issue.Name)} with ${String(product?.Name)}`,
      Description: `${String(issue.Description__c)} Customer reports this on ${String(product?.Name)}.`,
      Status: closed ? "Closed" : rng.pick(["New", "Working", "Escalated"]),
      ContactId: contacts.length > 0 ? rng.pick(contacts).Id : null,
      CreatedDate: created,
      ClosedDate: closedAt,
      OrderItemId__c: item.Id,
      IssueId__c: issue.Id,
      AccountId: order?.AccountId ?? null,
      OwnerId: owners[owners.length - 1],
    });
    history.push({ Id: world.newId("CaseHistory__c"), CaseId__c: caseId, OldValue__c: null, NewValue__c: null, CreatedDate: created, Field__c: "Case Creation" });
    owners.forEach((owner, k) => {
      const hour = String(Number(created.slice(11, 13)) + k).padStart(2, "0");
      history.push({
        Id: world.newId("CaseHistory__c"),
        CaseId__c: caseId,
        OldValue__c: k === 0 ? null : owners[k - 1],
        NewValue__c: owner,
        CreatedDate: `${createdDay}T${hour}${created.slice(13)}`,
        Field__c: "Owner Assignment",
      });
    });
    if (closedAt) history.push({ Id: world.newId("CaseHistory__c"), CaseId__c: caseId, OldValue__c: null, NewValue__c: null, CreatedDate: closedAt, Field__c: "Case Closed" });
  }
  for (const row of added) world.add("Case", row);
  for (const row of history) world.add("CaseHistory__c", row);
  casesByProductCache.delete(world);
}
