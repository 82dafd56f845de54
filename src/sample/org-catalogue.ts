import { addDays } from "../util/index.js";
import { type OrgDraw, randomDay } from "./org-draw.js";
import type { Row } from "./org-schema.js";
import * as V from "./vocabulary.js";

/** The products and their prices: what orders, cases, opportunities and quotes are made of. */
export interface Catalogue {
  readonly products: readonly Row[];
  /** Each product's kind (`adjective noun`), which its description names. */
  readonly productKind: ReadonlyMap<string, string>;
  /** Each priced product's list price, and its standard price book entry. */
  readonly listPrice: ReadonlyMap<string, number>;
  readonly entryOf: ReadonlyMap<string, string>;
  /** The products with a price: the only ones sold. */
  readonly sellable: readonly Row[];
}

/** Products, product categories, the two price books and the standard book's entries. */
export function generateCatalogue({ rng, t, id, count }: OrgDraw): Catalogue {
  const productKind = new Map<string, string>();
  const kinds = rng.shuffle(V.PRODUCT_ADJECTIVES.flatMap((adjective) => V.PRODUCT_NOUNS.map((noun) => `${adjective} ${noun}`)));
  let productIndex = 0;
  for (const prefix of V.PRODUCT_PREFIXES) {
    for (const suffix of V.PRODUCT_SUFFIXES) {
      const productId = id("Product2");
      const kind = kinds[productIndex % kinds.length]!;
      productKind.set(productId, kind);
      t.Product2!.push({
        Id: productId,
        Name: `${prefix} ${suffix}`,
        Description: `${prefix} ${suffix} is a ${kind} for ${rng.pick(V.PRODUCT_DOMAINS)} teams.`,
        IsActive: 1,
        External_ID__c: `PRD-${String(++productIndex).padStart(4, "0")}`,
      });
    }
  }
  const products = t.Product2!;
  for (const name of V.PRODUCT_CATEGORIES) t.ProductCategory!.push({ Id: id("ProductCategory"), Name: name, CatalogId: "0ZSWt0000000001AAA" });
  for (let i = 0; i < count("ProductCategoryProduct", 100); i++) {
    t.ProductCategoryProduct!.push({
      Id: id("ProductCategoryProduct"),
      ProductCategoryId: t.ProductCategory![i % 10]!.Id as string,
      ProductId: products[(i * 7) % products.length]!.Id as string,
    });
  }
  t.Pricebook2!.push({ Id: id("Pricebook2"), Name: "Standard Price Book", Description: "Standard list prices", IsActive: 1, ValidFrom: "2020-01-01", ValidTo: "2025-12-31" });
  t.Pricebook2!.push({ Id: id("Pricebook2"), Name: "Partner Price Book", Description: "Prices for channel partners", IsActive: 1, ValidFrom: "2021-01-01", ValidTo: "2025-12-31" });
  const listPrice = new Map<string, number>();
  const entryOf = new Map<string, string>();
  for (const product of products.slice(0, count("PricebookEntry", 50))) {
    const price = rng.int(20, 400) * 25;
    listPrice.set(product.Id as string, price);
    const entryId = id("PricebookEntry");
    entryOf.set(product.Id as string, entryId);
    t.PricebookEntry!.push({ Id: entryId, Pricebook2Id: t.Pricebook2![0]!.Id as string, Product2Id: product.Id as string, UnitPrice: price });
  }
  const sellable = products.filter((product) => listPrice.has(product.Id as string));
  return { products, productKind, listPrice, entryOf, sellable };
}

/** Contracts and orders: one order per contract, same account, effective on the contract's start date, with its items. */
export function generateContractsAndOrders({ rng, t, id, count }: OrgDraw, accounts: readonly Row[], catalogue: Catalogue, salesAgents: readonly string[]): void {
  const { sellable, listPrice, entryOf } = catalogue;
  const orderItems: Row[] = t.OrderItem!;
  for (let i = 0; i < count("Contract", 70); i++) {
    const account = rng.pick(accounts);
    const signed = randomDay(rng);
    const start = addDays(signed, rng.int(1, 20));
    const contractId = id("Contract");
    t.Contract!.push({
      Id: contractId,
      AccountId: account.Id,
      Status: "Activated",
      StartDate: start,
      CustomerSignedDate: addDays(signed, -rng.int(0, 5)),
      CompanySignedDate: signed,
      Description: `Subscription agreement with ${account.Name}.`,
      ContractTerm: rng.pick([12, 24, 36]),
    });
    const orderId = id("Order");
    t.Order!.push({
      Id: orderId,
      AccountId: account.Id,
      Status: rng.chance(0.9) ? "Activated" : "Draft",
      EffectiveDate: start,
      Pricebook2Id: t.Pricebook2![0]!.Id as string,
      OwnerId: rng.pick(salesAgents),
    });
    const lines = rng.int(2, 6);
    for (const product of rng.sample(sellable, lines)) {
      const unit = listPrice.get(product.Id as string)! * rng.pick([1, 0.95, 0.9]);
      orderItems.push({
        Id: id("OrderItem"),
        OrderId: orderId,
        Product2Id: product.Id,
        Quantity: rng.int(1, 40),
        UnitPrice: Math.round(unit * 100) / 100,
        PriceBookEntryId: entryOf.get(product.Id as string)!,
      });
    }
  }
}
