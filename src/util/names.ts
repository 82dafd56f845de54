/** Splits a Salesforce field name into words: `OrderItemId__c` → Order, Item, Id (custom). */
export function nameWords(name: string): { words: string[]; custom: boolean } {
  const custom = name.endsWith("__c");
  const base = custom ? name.slice(0, -3) : name;
  const words = base
    .split("_")
    .flatMap((part) => part.match(/[A-Z]+(?![a-z])\d*|[A-Z]?[a-z]+\d*|\d+/g) ?? [part])
    .filter(Boolean);
  return { words, custom };
}

/** A field's label, as Salesforce shows it beside the API name: `CreatedDate` → "Created Date", `OwnerId` → "Owner ID". */
export function fieldLabel(name: string): string {
  return nameWords(name)
    .words.map((word) => (word === "Id" || word === "ID" ? "ID" : word))
    .join(" ");
}
