import { checkDescription, checkName, checkTask, checkTimeout, policyOf } from "../core/checks";
import { managedTool } from "../runtime/run-contract";
import { declarationFieldsOf, type DeclarationFields } from "../schema/declaration-options";
import {
  markScanned,
  ownParameterRecords,
  toolMethodsOf,
  type ParameterRecord,
  type ParamOptions,
  type Constructor,
  type ToolMethodRecord,
  type ToolOptions,
} from "../decorators/metadata";
import { ScanError } from "../core/errors";
import { ManifestError } from "../manifest/errors";
import {
  manifestForClass,
  resolveManifest,
  type ClassManifest,
  type ManifestIndex,
  type ManifestOption,
} from "../manifest/load";
import {
  argsSchemaWithManifest,
  parameterSchemaWithManifest,
  staleReason,
  type RuntimeParameter,
} from "../manifest/merge";
import { KEEP_CLASS_NAMES, KEEP_PARAMETER_NAMES, looksMinified, methodLooksMinified } from "../manifest/minified";
import { MANIFEST_ENV, MANIFEST_FILE, type ManifestParameter, type ManifestTool } from "../manifest/types";
import { decoratedRunner, type MethodInvoker, type ParameterBinding } from "../runtime/decorated";
import { acceptsUndefined } from "../runtime/standard-validation";
import { resultShapeOf } from "../runtime/output-schema";
import { resultDeclarationProblem } from "../schema/output-schema";
import type { ResultShape } from "../runtime/result";
import { backtrackingPatterns } from "../runtime/validation";
import { canonicalSchema } from "../schema/canonical";
import { discriminatedUnionsForValidation } from "../schema/discriminated-unions";
import { refuseReservedPropertyNames } from "../schema/dto-property-names";
import { DtoSchemaError, schemaForClass } from "../schema/dto-schema";
import { ParameterSchemaError, schemaForParameter } from "../schema/parameter-schema";
import { sourceParameters } from "../schema/parameter-names";
import { isStandardSchema } from "../schema/standard-schema";
import { functionInsteadOfInstance } from "./instance-expected";
import { missingMetadataFix } from "./metadata-less-runner";
import { checkInputMethod, isDtoInput, schemaInputTool, standardModeParametersError } from "./input-option";
import type { DecoratorMode } from "../decorators/decorator-mode";
import { isUserClass } from "../schema/scalars";
import type { JSONSchemaObject, Tool, ToolPolicy } from "../core/types";

export interface ScanOptions {
  /**
   * The manifest written by `toolnexus generate`: the object, a path to it, or `false` for none.
   * A relative path (here or in `$TOOLNEXUS_MANIFEST`) is resolved from the working directory;
   * pass an absolute path (e.g. `join(__dirname, "toolnexus.manifest.json")`) to be independent
   * of it. Left out: `$TOOLNEXUS_MANIFEST` if set, else `toolnexus.manifest.json` found next to
   * each `@Tool` class's code (its file's directory or one above it, up to the package root; that
   * search never uses `process.cwd()`). Explicit decorator options win over it; it wins over
   * `design:paramtypes`.
   */
  manifest?: ManifestOption;
  /**
   * Put before every tool name (`"billing_"` + `refund`), for integrations that name tools per
   * module (toolnexus/nestjs). The manifest is matched on the name without it.
   */
  namePrefix?: string;
}

/**
 * The tools of a decorated instance, bound to it: its own `@Tool` methods and inherited ones
 * (an override in a subclass wins). Throws `ScanError` naming class, method and parameter when
 * a tool cannot be built correctly, and `ManifestError` when the manifest is unusable or stale
 * for one of its methods.
 */
export function scanTools(instance: object, options: ScanOptions = {}): Tool[] {
  if (typeof instance === "function")
    throw new ScanError(
      `scanTools takes an instance of a class with @Tool methods; ${functionInsteadOfInstance(instance)}.`,
    );
  if (typeof instance !== "object" || instance === null) {
    throw new ScanError(
      `scanTools takes an instance of a class with @Tool methods; got ${instance === null ? "null" : typeof instance}.`,
    );
  }
  if (typeof Reflect.getOwnMetadata !== "function") {
    throw new ScanError(
      'Reflect metadata is not available: add `import "reflect-metadata";` once at the top of your entry file.',
    );
  }
  return scanPrototype(Object.getPrototypeOf(instance) as object, { ...options, instance });
}

/** What `scanPrototype` builds tools from: the class's prototype, and what calls run on. */
export interface PrototypeScanOptions extends ScanOptions {
  /** The instance the methods run on (scanTools). */
  instance?: object;
  /** Runs each accepted call instead (integrations with no instance, or a pipeline of their own). */
  invoke?: MethodInvoker;
}

/**
 * The tools of a class given by its prototype: scanTools for an instance, and integrations
 * (toolnexus/nestjs) for classes whose instances exist only per call. The metadata checks of
 * `scanTools` apply the same.
 */
export function scanPrototype(prototype: object, options: PrototypeScanOptions): Tool[] {
  const { instance, invoke } = options;
  if (instance === undefined && invoke === undefined)
    throw new TypeError("scanPrototype needs an instance or an invoke function.");
  const className = (prototype as { constructor?: Function } | null)?.constructor?.name || "(anonymous class)";
  const found = toolMethodsOf(prototype);
  if (found.length === 0) {
    throw new ScanError(
      `${className} has no @Tool methods. Decorate the methods models may call with @Tool("what it does").`,
    );
  }
  const manifest = resolveManifest(options.manifest);
  // Each declaring class has its own (inherited tools may come from another package).
  const manifests = new Map<object, ClassManifest>();
  const tools: Tool[] = [];
  const methodOfName = new Map<string, string>();
  for (const { prototype: declaring, record } of found) {
    let classManifest = manifests.get(declaring);
    if (manifest !== undefined && classManifest === undefined) {
      classManifest = manifestForClass(manifest, declaring);
      manifests.set(declaring, classManifest);
    }
    const tool = buildTool(
      { instance, invoke, lookup: instance ?? prototype },
      className,
      declaring,
      record,
      classManifest,
      options.namePrefix ?? "",
    );
    const other = methodOfName.get(tool.name);
    if (other !== undefined) {
      throw new ScanError(
        `${className}.${other} and ${className}.${record.propertyKey} both declare the tool "${tool.name}"; give one ` +
          "of them another name with @Tool({ name }).",
      );
    }
    methodOfName.set(tool.name, record.propertyKey);
    tools.push(tool);
  }
  markScanned(prototype);
  return tools;
}

/** Where a tool's method is read from and how it runs. */
export interface Receiver {
  instance: object | undefined;
  invoke: MethodInvoker | undefined;
  /** The object the method is read from: the instance, else the prototype. */
  lookup: object;
}

export function buildTool(
  { instance, invoke, lookup }: Receiver,
  className: string,
  prototype: object,
  { propertyKey, options, mode }: ToolMethodRecord,
  manifest: ClassManifest | undefined,
  namePrefix: string,
): Tool {
  const where = `${className}.${propertyKey}`;
  const method = (lookup as Record<string, unknown>)[propertyKey];
  if (typeof method !== "function")
    throw new ScanError(
      `${where} is decorated with @Tool but is not a method on the ${instance === undefined ? "class" : "instance"}.`,
    );
  const ownName = options.name ?? propertyKey;
  const name = namePrefix + ownName;
  // The manifest is keyed by the class that declares the method (inherited tools included).
  const declaringClass = (prototype as { constructor?: Function }).constructor?.name || className;
  const index = manifest?.index;
  const entry = index?.entry(declaringClass, propertyKey, manifest!.definingFile);
  if (index !== undefined && entry === undefined)
    refuseMinifiedClassName(where, declaringClass, propertyKey, method as Function, index);
  // What errors a manifest would have prevented add: where none was found, or that it lacks this tool.
  const note =
    manifest === undefined || entry !== undefined
      ? ""
      : manifest.index === undefined
        ? ` ${manifest.missing.charAt(0).toUpperCase()}${manifest.missing.slice(1)}. Fix: run ` +
          `\`npx toolnexus generate\` and put ${MANIFEST_FILE} next to the code or at its package root, pass ` +
          `{ manifest: "path/to/${MANIFEST_FILE}" }, or set ${MANIFEST_ENV} to its path.`
        : ` (The manifest ${manifest.index.source} has no entry for ${declaringClass}.${propertyKey}: run ` +
          `\`npx toolnexus generate\` to add ` +
          "it." +
          `${looksMinified(declaringClass) ? ` If "${declaringClass}" is a minified name: ${KEEP_CLASS_NAMES}.` : ""})`;
  const description = options.description ?? entry?.description;
  let policy: ToolPolicy;
  try {
    checkName(name);
    checkDescription(name, description);
    checkTimeout(`Tool "${name}"`, options.timeout);
    checkTask(`Tool "${name}"`, options.task);
    policy = policyOf(`Tool "${name}"`, options);
  } catch (error) {
    throw new ScanError(
      `${where}: ${(error as Error).message}${description === undefined ? ` Use @Tool("what it does").${note}` : ""}`,
    );
  }
  const outputSchema = outputSchemaOf(where, options.output, entry?.output);
  const declarationProblem = resultDeclarationProblem({ outputSchema, mimeType: options.mimeType });
  if (declarationProblem !== undefined) throw new ScanError(`${where}: ${declarationProblem}.`);
  const { input } = options;
  if (input !== undefined) {
    checkInputMethod(where, ownParameterRecords(prototype, propertyKey), parameterCountOf(method as Function));
    if (!isDtoInput(input))
      return schemaInputTool(
        where,
        { name, description: description!, options, outputSchema },
        { method: method as Function, methodName: propertyKey, instance, invoke },
      );
  }
  const built = buildParameters(
    where,
    { prototype, propertyKey, mode, method: method as Function },
    // A DTO input is the method's @Args, then its ctx: the manifest's parameters do not apply.
    input !== undefined ? { dtoInput: input as Constructor } : entry && { entry, name: ownName, source: index!.source },
    note,
  );
  const { inputSchema, bindings } = built;
  let declaration: DeclarationFields;
  try {
    declaration = declarationFieldsOf(name, options, inputSchema, options.backtrackingPatterns === true);
  } catch (error) {
    throw new ScanError(`${where}: ${(error as Error).message}`);
  }
  // What the arguments are checked against: parameters with a Standard Schema are its to judge.
  const checkedSchema = withoutStandardParameters(inputSchema, bindings);
  if (options.backtrackingPatterns !== true) refuseBacktrackingPatterns(where, checkedSchema, bindings);
  const runner = decoratedRunner({
    name,
    // The same schema, its discriminated unions checked in a form whose errors are about the
    // subtype a value names rather than every subtype's complaints.
    inputSchema: discriminatedUnionsForValidation(checkedSchema),
    bindings,
    method: method as (...args: unknown[]) => unknown,
    methodName: propertyKey,
    ...(invoke !== undefined ? { invoke } : { instance }),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    ...(options.backtrackingPatterns === true ? { backtrackingPatterns: true } : {}),
    ...shapeField(resultShapeOf(name, { outputSchema, mimeType: options.mimeType })),
  });
  return managedTool(
    {
      name,
      description: description!,
      inputSchema,
      ...(outputSchema !== undefined ? { outputSchema } : {}),
      source: "decorator",
      ...(options.annotations ? { annotations: { ...options.annotations } } : {}),
      ...(options.task === true ? { task: true } : {}),
      ...policy!,
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      ...declaration,
    },
    runner,
    true,
  );
}

/** `@Tool({ output })` (a DTO class or a schema) wins over the manifest's, inferred from the return type. */
function outputSchemaOf(
  where: string,
  declared: ToolOptions["output"],
  fromManifest: JSONSchemaObject | undefined,
): JSONSchemaObject | undefined {
  if (declared === undefined) return fromManifest;
  if (typeof declared !== "function") return declared;
  if (!isUserClass(declared))
    throw new ScanError(
      `${where}: @Tool({ output }) takes a DTO class or a JSON Schema (got ` +
        `${(declared as Function).name || "a function"}).`,
    );
  try {
    refuseReservedPropertyNames(declared);
    return schemaForClass(declared);
  } catch (error) {
    throw located(`${where} (its output ${declared.name})`, error);
  }
}

const shapeField = (shape: ResultShape | undefined) => (shape === undefined ? {} : { shape });

/** How many parameters a method declares: as its source reads, else as `length` counts (up to the first default). */
function parameterCountOf(method: Function): number {
  return Math.max(sourceParameters(method).length, method.length);
}

/** The decorated method whose parameters are read, and the kind of decorators its class is compiled with. */
interface DecoratedMethod {
  prototype: object;
  propertyKey: string;
  method: Function;
  mode: DecoratorMode;
}

/** Where the parameters' descriptions come from beside the decorators: the manifest's entry, or `@Tool({ input })`'s DTO. */
type ParameterSource = { entry: ManifestTool; name: string; source: string } | { dtoInput: Constructor } | undefined;

function buildParameters(
  where: string,
  { prototype, propertyKey, method, mode }: DecoratedMethod,
  parameterSource: ParameterSource,
  manifestNote: string,
): { inputSchema: JSONSchemaObject; bindings: ParameterBinding[] } {
  const manifest = parameterSource !== undefined && "entry" in parameterSource ? parameterSource : undefined;
  const records: ReadonlyArray<ParameterRecord | undefined> =
    parameterSource !== undefined && "dtoInput" in parameterSource
      ? [{ kind: "args", type: parameterSource.dtoInput }, { kind: "ctx" }]
      : ownParameterRecords(prototype, propertyKey);
  const designTypes = Reflect.getOwnMetadata("design:paramtypes", prototype, propertyKey) as unknown[] | undefined;
  const fromSource = sourceParameters(method);
  const count = Math.max(records.length, designTypes?.length ?? 0, fromSource.length, method.length);
  if (mode === "standard" && records.length === 0 && manifest === undefined && count > 0)
    throw standardModeParametersError(where, count, manifestNote);
  if (manifest !== undefined) checkFresh(where, manifest, method, records, fromSource, count);

  const properties: Record<string, JSONSchemaObject> = {};
  const required: string[] = [];
  const bindings: ParameterBinding[] = [];
  let argsSchema: JSONSchemaObject | undefined;

  for (let index = 0; index < count; index++) {
    const listed: ManifestParameter | undefined = manifest?.entry.parameters[index];
    // Standard decorators have no @Ctx: the manifest says which parameter takes the context (typed ToolContext).
    const record: ParameterRecord =
      records[index] ?? (listed?.kind === "ctx" ? { kind: "ctx" } : { kind: "param", options: {} });
    const designType = designTypes?.[index];
    if (record.kind === "ctx") {
      bindings.push({ kind: "ctx" });
      continue;
    }
    if (record.kind === "args") {
      const dto = record.type ?? designType;
      if (typeof dto !== "function" || !isUserClass(dto)) {
        throw new ScanError(
          (
            `${parameterLabel(where, index)}: @Args needs a DTO class, but ` +
            `${designTypes === undefined ? "no type metadata was emitted" : `the type is ${describe(dto)}`}. Write ` +
            "@Args(TheDto) or type the parameter with a class. " +
            `${designTypes === undefined ? `${missingMetadataFix()}.${manifestNote}` : ""}`
          ).trim(),
        );
      }
      try {
        refuseReservedPropertyNames(dto);
        argsSchema = listed?.kind === "args" ? argsSchemaWithManifest(dto, listed.schema) : schemaForClass(dto);
      } catch (error) {
        throw located(parameterLabel(where, index), error);
      }
      bindings.push({ kind: "args", dto });
      continue;
    }
    const fromManifest = listed?.kind === "param" ? listed : undefined;
    const name = record.name ?? fromManifest?.name ?? fromSource[index]?.name;
    if (name === undefined) {
      throw new ScanError(
        `${parameterLabel(where, index)}: its name cannot be read from the source (destructuring or rest). Name it: ` +
          `@Param("name").${manifestNote}`,
      );
    }
    if (designTypes === undefined && !explicitlyTyped(record.options) && fromManifest?.schema === undefined) {
      throw new ScanError(
        `${parameterLabel(where, index, name)}: no type metadata was emitted for this method. ` +
          `${missingMetadataFix()}.${manifestNote}`,
      );
    }
    if (name === "__proto__" || name === "constructor" || name === "prototype") {
      throw new ScanError(
        `${parameterLabel(where, index, name)}: "${name}" cannot be an argument name (calls carrying that key are ` +
          `refused as prototype pollution). Name it otherwise: @Param("other").`,
      );
    }
    if (Object.hasOwn(properties, name))
      throw new ScanError(
        `${parameterLabel(where, index, name)}: another parameter of this tool is also named "${name}".`,
      );
    const standard = isStandardSchema(record.options.schema) ? record.options.schema : undefined;
    try {
      // Checked even when a JSON Schema is given: the argument is still made into the DTO.
      const dto = standard === undefined ? conversionFor(record.options.type ?? designType) : undefined;
      if (dto !== undefined && "dto" in dto) refuseReservedPropertyNames(dto.dto);
      properties[name] =
        fromManifest !== undefined
          ? parameterSchemaWithManifest(designType, record.options, fromManifest.schema)
          : schemaForParameter(designType, record.options);
    } catch (error) {
      throw located(parameterLabel(where, index, name), error);
    }
    // An explicit `optional` wins over what the default value, the source, the manifest or a Standard Schema that takes
    // `undefined` say.
    const optional =
      record.options.optional ??
      (record.options.default !== undefined ||
        fromSource[index]?.hasDefault === true ||
        fromManifest?.optional === true ||
        (standard !== undefined && acceptsUndefined(standard)));
    if (!optional) required.push(name);
    const binding: ParameterBinding = { kind: "param", name };
    // A Standard Schema's output is what the method gets: no conversion after it.
    const convert =
      standard === undefined
        ? conversionWithManifest(where, index, name, record.options, designType, fromManifest)
        : undefined;
    if (convert !== undefined) binding.convert = convert;
    if (standard !== undefined) binding.standard = standard;
    if (record.options.default !== undefined) binding.defaultValue = record.options.default;
    bindings.push(binding);
  }

  if (argsSchema !== undefined) {
    if (Object.keys(properties).length > 0) {
      throw new ScanError(
        `${where}: @Args takes the whole argument object, so it cannot be combined with @Param parameters. Move them ` +
          "into the DTO.",
      );
    }
    return { inputSchema: canonicalSchema(argsSchema), bindings };
  }
  const inputSchema: JSONSchemaObject = {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
  return { inputSchema: canonicalSchema(inputSchema), bindings };
}

/**
 * `inputSchema` with any value allowed for the parameters a Standard Schema checks (whether they are there is still the
 * tool schema's).
 */
function withoutStandardParameters(inputSchema: JSONSchemaObject, bindings: ParameterBinding[]): JSONSchemaObject {
  const names = bindings.flatMap((binding) =>
    binding.kind === "param" && binding.standard !== undefined ? [binding.name] : [],
  );
  if (names.length === 0) return inputSchema;
  const properties = { ...inputSchema.properties };
  for (const name of names) properties[name] = {};
  return { ...inputSchema, properties };
}

/** A pattern RE2 cannot run is refused here, naming the parameter it constrains, unless the tool opted in. */
function refuseBacktrackingPatterns(where: string, inputSchema: JSONSchemaObject, bindings: ParameterBinding[]): void {
  const [first] = backtrackingPatterns(inputSchema);
  if (first === undefined) return;
  const top = /^\/properties\/([^/]+)/.exec(first.pointer)?.[1]?.replace(/~1/g, "/").replace(/~0/g, "~");
  const index = bindings.findIndex((binding) => binding.kind === "param" && binding.name === top);
  const label =
    index >= 0 ? parameterLabel(where, index, top) : top !== undefined ? `${where}, @Args property "${top}"` : where;
  throw new ScanError(
    `${label}: ${first.problem}. ` +
      "Rewrite it without backreferences or lookahead, or opt in with @Tool({ backtrackingPatterns: true }) and " +
      "bound its input with maxLength.",
  );
}

/** A manifest entry that no longer matches the method's parameters is an error, never silently applied. */
function checkFresh(
  where: string,
  manifest: { entry: ManifestTool; name: string; source: string },
  method: Function,
  records: ReadonlyArray<ParameterRecord | undefined>,
  fromSource: ReturnType<typeof sourceParameters>,
  count: number,
): void {
  const parameters: RuntimeParameter[] = [];
  for (let index = 0; index < count; index++) {
    const record = records[index];
    if (record !== undefined && record.kind !== "param") parameters.push({ kind: record.kind });
    else if (record?.name !== undefined) parameters.push({ kind: "param", name: record.name, named: true });
    else parameters.push({ kind: "param", name: fromSource[index]?.name, undecorated: record === undefined });
  }
  const stale = staleReason(manifest.entry, manifest.name, parameters, methodLooksMinified(method, fromSource));
  if (stale === undefined) return;
  if (stale.minified) {
    throw new ManifestError(
      `${where}: the manifest ${manifest.source} does not fit this method (${stale.reason}), and the code's ` +
        `parameter names look minified. ${KEEP_PARAMETER_NAMES}.`,
    );
  }
  throw new ManifestError(
    `${where}: the manifest ${manifest.source} is stale for this method (${stale.reason}). Run ` +
      `\`npx toolnexus generate\` again, or scan without it ({ manifest: false }).`,
  );
}

/**
 * A class the manifest does not know, with a name a minifier would give, whose method the
 * manifest lists under other classes and whose code looks minified: its name was minified, and
 * regenerating would not help. A short name in readable code (`AI`, `Db`, `S3`) is a real one:
 * its tools are built from run-time metadata, as for any class the manifest lacks.
 */
function refuseMinifiedClassName(
  where: string,
  declaringClass: string,
  methodName: string,
  method: Function,
  index: ManifestIndex,
): void {
  if (!looksMinified(declaringClass) || !methodLooksMinified(method)) return;
  const others = index.classesWithMethod(methodName).filter((name) => name !== declaringClass);
  if (others.length === 0) return;
  throw new ManifestError(
    `${where}: the class name "${declaringClass}" looks minified: the manifest ${index.source} has no class of that ` +
      `name, and lists ${methodName} under ${others.join(", ")}. ${KEEP_CLASS_NAMES}. (If ${declaringClass} is its ` +
      `real name, run \`npx toolnexus generate\` to add it.)`,
  );
}

/** How the argument becomes what the method receives: from the runtime type when known, else from the manifest. */
function conversionWithManifest(
  where: string,
  index: number,
  name: string,
  options: ParamOptions,
  designType: unknown,
  fromManifest: Extract<ManifestParameter, { kind: "param" }> | undefined,
): Conversion | undefined {
  const own = conversionFor(options.type ?? designType);
  if (own !== undefined || fromManifest?.convert === undefined) return own;
  switch (fromManifest.convert) {
    case "date":
      return { date: true, each: false };
    case "date[]":
      return { date: true, each: true };
    default: {
      if (options.schema !== undefined) return undefined;
      const many = fromManifest.convert === "class[]";
      const cls = fromManifest.className ?? "a class";
      throw new ScanError(
        `${parameterLabel(where, index, name)}: its type is ` +
          `${many ? `an array of ${cls} instances` : `a ${cls} instance`}, and the class itself is not known at run ` +
          `time${designType === undefined ? " (no type metadata was emitted)" : ""}. Say it with ` +
          `@Param({ type: ${many ? `[${cls}]` : cls} }).`,
      );
    }
  }
}

function explicitlyTyped(options: ParamOptions): boolean {
  return options.type !== undefined || options.schema !== undefined || options.enum !== undefined;
}

type Conversion = NonNullable<Extract<ParameterBinding, { kind: "param" }>["convert"]>;

function conversionFor(type: unknown): Conversion | undefined {
  if (type === Date) return { date: true, each: false };
  if (Array.isArray(type) && type[0] === Date) return { date: true, each: true };
  if (Array.isArray(type) && isUserClass(type[0])) return { dto: type[0], each: true };
  if (isUserClass(type)) return { dto: type as Function, each: false };
  return undefined;
}

function parameterLabel(where: string, index: number, name?: string): string {
  return name === undefined ? `${where}, parameter ${index}` : `${where}, parameter ${index} ("${name}")`;
}

function describe(value: unknown): string {
  return typeof value === "function" ? value.name || "an anonymous function" : String(value);
}

/** A schema builder's complaint, re-thrown as a ScanError saying where it happened; other errors as they are. */
function located(label: string, error: unknown): unknown {
  if (error instanceof ParameterSchemaError || error instanceof DtoSchemaError)
    return new ScanError(`${label}: ${error.message}.`.replace(/\.\.$/, "."));
  return error;
}
