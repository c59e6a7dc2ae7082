/**
 * The manifest of `toolnexus generate` (ToolnexusModule.forRoot({ manifest })): what metadata
 * cannot know about a provider's methods (unions, optionality, JSDoc) comes from it, also with
 * name prefixes, inherited methods and request-scoped providers.
 */
import "reflect-metadata";
import { Injectable, Module, Scope } from "@nestjs/common";
import { Test } from "@nestjs/testing";
import { ManifestError, type ToolnexusManifest } from "../../src/manifest";
import { ScanError, Tool, Toolkit, type JSONSchemaObject } from "toolnexus";
import { ToolnexusModule, type ToolnexusModuleOptions } from "toolnexus/nestjs";
import { RecordingLogger } from "./fixtures";

type Format = "csv" | "pdf";

@Injectable()
class ReportsService {
  /** The description is in the manifest (from the JSDoc), not in the decorator. */
  @Tool()
  weekly(format: Format, weeks?: number) {
    return `${format}:${weeks ?? 1}`;
  }
}
@Module({ providers: [ReportsService] })
class ReportsModule {}

abstract class BaseReports {
  @Tool()
  monthly(format: Format) {
    return `monthly ${format} for ${this.team()}`;
  }
  protected abstract team(): string;
}

@Injectable({ scope: Scope.REQUEST })
class TeamReportsService extends BaseReports {
  protected team() {
    return "sales";
  }
}
@Module({ providers: [TeamReportsService] })
class TeamModule {}

const formatSchema: JSONSchemaObject = { type: "string", enum: ["csv", "pdf"] };
const manifest: ToolnexusManifest = {
  manifestVersion: 1,
  hash: "test",
  tools: {
    "ReportsService.weekly": {
      name: "weekly",
      file: "test/nestjs/manifest.test.ts",
      hash: "w",
      description: "The weekly sales report",
      parameters: [
        { kind: "param" as const, name: "format", optional: false, schema: formatSchema },
        { kind: "param" as const, name: "weeks", optional: true, schema: { type: "integer", minimum: 1 } },
      ],
    },
    // Keyed by the class that declares the method.
    "BaseReports.monthly": {
      name: "monthly",
      file: "test/nestjs/manifest.test.ts",
      hash: "m",
      description: "The monthly report of the caller's team",
      parameters: [{ kind: "param" as const, name: "format", optional: false, schema: formatSchema }],
    },
  },
};

async function boot(imports: unknown[], options: ToolnexusModuleOptions) {
  const moduleRef = await Test.createTestingModule({ imports: [ToolnexusModule.forRoot(options), ...(imports as [])] })
    .setLogger(new RecordingLogger())
    .compile();
  const app = await moduleRef.init();
  return { app, toolkit: app.get(Toolkit) };
}

describe("the manifest option", () => {
  it("fills descriptions and schemas of providers' tools, with prefixes, inherited methods and request scope", async () => {
    const { app, toolkit } = await boot([ReportsModule, TeamModule], { manifest, prefix: true });
    try {
      const weekly = toolkit.get("reports_weekly")!;
      expect(weekly.description).toBe("The weekly sales report");
      expect(weekly.inputSchema).toEqual({
        type: "object",
        properties: { format: formatSchema, weeks: { type: "integer", minimum: 1 } },
        required: ["format"],
        additionalProperties: false,
      });
      expect((await toolkit.execute("reports_weekly", { format: "pdf", weeks: 2 })).output).toBe("pdf:2");
      const wrong = await toolkit.execute("reports_weekly", { format: "docx" });
      expect(wrong.metadata?.error).toBe("invalid_arguments");
      expect(wrong.output).toContain('tool "reports_weekly"');

      const monthly = toolkit.get("team_monthly")!;
      expect(monthly.description).toBe("The monthly report of the caller's team");
      expect(monthly.inputSchema.properties).toEqual({ format: formatSchema });
      expect((await toolkit.execute("team_monthly", { format: "csv" }, { state: { request: {} } })).output).toBe(
        "monthly csv for sales",
      );
    } finally {
      await app.close();
    }
  });

  it("is the injected toolkit's manifest too, for instances registered later", async () => {
    const { app, toolkit } = await boot([], { manifest });
    try {
      toolkit.register(new ReportsService());
      expect(toolkit.get("weekly")!.description).toBe("The weekly sales report");
    } finally {
      await app.close();
    }
  });

  it("a stale entry stops startup with a ManifestError naming the provider and its module", async () => {
    const stale: ToolnexusManifest = {
      ...manifest,
      tools: {
        ...manifest.tools,
        "ReportsService.weekly": { ...manifest.tools["ReportsService.weekly"]!, name: "weekly_report" },
      },
    };
    const failure = (await boot([ReportsModule], { manifest: stale }).catch((e: Error) => e)) as Error;
    expect(failure).toBeInstanceOf(ManifestError);
    expect(failure.message).toContain("ReportsService (provider of ReportsModule)");
    expect(failure.message).toContain("stale");
  });

  it("manifest: false uses none, so a tool without a description cannot be built", async () => {
    const failure = (await boot([ReportsModule], { manifest: false }).catch((e: Error) => e)) as Error;
    expect(failure).toBeInstanceOf(ScanError);
    expect(failure.message).toContain("ReportsService (provider of ReportsModule)");
    expect(failure.message).toContain("needs a non-empty description");
  });
});
