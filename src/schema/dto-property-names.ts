import { classValidator } from "../runtime/dto-libraries";
import { discriminatorOf, DtoSchemaError, nestedClassesOf } from "./dto-schema";

/** Keys a call may not carry at any depth (the arguments check refuses them as prototype pollution). */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Names every object already has. A DTO property with one cannot work: class-transformer does
 * not copy an argument onto a member the instance already has as a function, and
 * class-validator then checks the inherited member.
 */
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Throws a DtoSchemaError naming the DTO and the property when `dto`, or any DTO its values
 * are made into (nested, in arrays, discriminated subtypes), has a property (or a
 * discriminator) named like a prototype-reaching key or a member of Object.prototype.
 * Recursive DTOs are walked once per class.
 */
export function refuseReservedPropertyNames(dto: Function): void {
  const { getMetadataStorage, ValidationTypes } = classValidator();
  const seen = new Set<Function>();
  const visit = (ctor: Function, path: readonly string[]) => {
    if (seen.has(ctor)) return;
    seen.add(ctor);
    const properties = new Map<string, boolean>();
    for (const meta of getMetadataStorage().getTargetValidationMetadatas(ctor, "", true, false)) {
      properties.set(
        meta.propertyName,
        properties.get(meta.propertyName) === true || meta.type === ValidationTypes.NESTED_VALIDATION,
      );
    }
    for (const key of properties.keys()) if (reserved(key)) throw refusal(ctor, path, key, "");
    for (const [key, validatesNested] of properties) {
      const where = [...path, `${ctor.name}.${key}`];
      const discriminator = discriminatorOf(ctor, key);
      if (discriminator !== undefined && reserved(discriminator.property)) {
        throw refusal(discriminator.subTypes[0]!.value, where, discriminator.property, " (its discriminator)");
      }
      for (const nested of nestedClassesOf(ctor, key, validatesNested)) visit(nested, where);
    }
  };
  visit(dto, []);
}

function reserved(key: string): boolean {
  return PROTOTYPE_KEYS.has(key) || OBJECT_MEMBERS.has(key);
}

function refusal(dto: Function, path: readonly string[], key: string, role: string): DtoSchemaError {
  const at = path.length > 0 ? ` (at ${path.join(" → ")})` : "";
  const why = PROTOTYPE_KEYS.has(key)
    ? "a key calls may not carry (they are refused as prototype pollution), so it could never be filled"
    : role === ""
      ? `which every object already has (Object.prototype.${key}): class-transformer would not fill it from the ` +
        "arguments and class-validator would check the inherited member instead"
      : `which every object already has (Object.prototype.${key}): a value without it would still seem to have one`;
  return new DtoSchemaError(`DTO ${dto.name}${at} has a property named "${key}"${role}, ${why}. Rename the property.`);
}
