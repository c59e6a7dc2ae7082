import "reflect-metadata";
import { Injectable, Module } from "@nestjs/common";
import { Test } from "@nestjs/testing";
import { Tool, Toolkit, scanTools } from "toolnexus";
import { ToolnexusModule } from "toolnexus/nestjs";
import { RecordingLogger } from "./fixtures";

// The startup report warns about decorated classes no module provides: their tools would be
// in no toolkit. A class whose instances were already scanned outside Nest is in use, not
// forgotten, and is not reported.

class PlainWeather {
  @Tool("Weather outside Nest")
  weather(city: string) {
    return city;
  }
}

class AuditedBase {
  @Tool("Audit log of a base class")
  auditLog() {
    return [];
  }
}
class ScannedSubclass extends AuditedBase {
  @Tool("A tool of a subclass")
  ship(orderId: string) {
    return orderId;
  }
}

class ScannedByScanTools {
  @Tool("Scanned directly")
  direct() {
    return "direct";
  }
}

// Decorated, then never provided nor scanned (exported only so that it is not an unused declaration).
export class NeverUsed {
  @Tool("A tool nobody scans or provides")
  forgotten() {
    return "forgotten";
  }
}

@Injectable()
class CatalogService {
  @Tool("Find a product")
  findProduct(sku: string) {
    return sku;
  }
}
@Module({ providers: [CatalogService] })
class CatalogModule {}

async function bootAndReadWarnings(): Promise<string[]> {
  const logger = new RecordingLogger();
  const moduleRef = await Test.createTestingModule({ imports: [ToolnexusModule.forRoot(), CatalogModule] })
    .setLogger(logger)
    .compile();
  const app = await moduleRef.init();
  await app.close();
  return logger.toolnexus("warn");
}

describe("the unregistered-class warning and classes used outside Nest", () => {
  let warnings: string[];

  beforeAll(async () => {
    new Toolkit([new PlainWeather(), new ScannedSubclass()]);
    scanTools(new ScannedByScanTools());
    warnings = await bootAndReadWarnings();
  });

  it("does not report a class given to a Toolkit before startup", () => {
    expect(warnings.join("\n")).not.toContain("PlainWeather");
  });

  it("does not report the base class of a scanned subclass, nor the subclass", () => {
    expect(warnings.join("\n")).not.toMatch(/AuditedBase|ScannedSubclass/);
  });

  it("does not report a class scanned with scanTools", () => {
    expect(warnings.join("\n")).not.toContain("ScannedByScanTools");
  });

  it("still reports a class that is neither provided nor scanned, saying what to do", () => {
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^NeverUsed has @Tool methods \(forgotten\) but is not a provider of any module.*Add it to a module's providers/,
      ),
    );
  });
});
