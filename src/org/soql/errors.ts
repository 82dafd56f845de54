/** A query error in Salesforce's words (`MALFORMED_QUERY`, `INVALID_FIELD`, ...), so agents can recover as they would on a real org. */
export class SalesforceError extends Error {
  override readonly name = "SalesforceError";
  constructor(
    readonly code: "MALFORMED_QUERY" | "INVALID_FIELD" | "INVALID_TYPE" | "MALFORMED_SEARCH" | "INVALID_SEARCH",
    message: string,
  ) {
    super(message);
  }
}

export const invalidType = (object: string) =>
  new SalesforceError(
    "INVALID_TYPE",
    `sObject type '${object}' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names.`,
  );

export const noSuchColumn = (field: string, object: string) =>
  new SalesforceError(
    "INVALID_FIELD",
    `No such column '${field}' on entity '${object}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names.`,
  );

export const unknownRelationship = (relationship: string, object: string) =>
  new SalesforceError(
    "INVALID_FIELD",
    `Didn't understand relationship '${relationship}' in field path on entity '${object}'. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name. Please reference your WSDL or the describe call for the appropriate names.`,
  );

export const malformed = (message: string) => new SalesforceError("MALFORMED_QUERY", message);
