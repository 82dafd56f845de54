import { z } from "zod";

/**
 * What a backend can be asked to change in its own copy of the org: the vocabulary in which an
 * entropy plan speaks (entropy decides what changes; the backend applies it; the base org is
 * never written). Every change is plain data, so a plan is serialisable and logged.
 */
const SqlValueSchema = z.union([z.string(), z.number(), z.null()]);
const FieldTypeSchema = z.enum(["id", "reference", "string", "date", "datetime", "int", "double", "boolean"]);

/** A field a change adds, with what describe_schema says of it. */
export const FieldSpecSchema = z.object({
  name: z.string().min(1),
  label: z.string().min(1),
  type: FieldTypeSchema,
  references: z.array(z.string()).default([]),
  note: z.string().optional(),
});
export type FieldSpec = z.infer<typeof FieldSpecSchema>;

export const OrgChangeSchema = z.discriminatedUnion("op", [
  /** A new field on every record of an object, set to `value`. */
  z.object({ op: z.literal("add_field"), object: z.string(), field: FieldSpecSchema, value: SqlValueSchema }),
  /** A field under a new API name; its label, type and values stay. */
  z.object({ op: z.literal("rename_field"), object: z.string(), from: z.string(), to: z.string() }),
  /** A new field holding a copy of another's values, with its label and type. */
  z.object({ op: z.literal("copy_field"), object: z.string(), from: z.string(), to: z.string() }),
  /** A note describe_schema shows beside a field; `replacedBy` marks it deprecated in favour of another. */
  z.object({ op: z.literal("annotate_field"), object: z.string(), field: z.string(), note: z.string(), replacedBy: z.string().optional() }),
  /** One value written into a field of the records with these Ids. */
  z.object({ op: z.literal("set_values"), object: z.string(), field: z.string(), ids: z.array(z.string()), value: SqlValueSchema }),
  /** New records (every field by name; missing ones are null). */
  z.object({ op: z.literal("insert_records"), object: z.string(), records: z.array(z.record(z.string(), SqlValueSchema)) }),
]);
export type OrgChange = z.infer<typeof OrgChangeSchema>;
